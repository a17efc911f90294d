// The worker's declarativeNetRequest session rules, shared by every hold that keeps some: each owns a set of its own,
// swapped in one call (never a moment without it), ids never reused, updates one after another.

/** A rule as the holds write it, unnumbered; its fields are Chrome's (chrome.declarativeNetRequest.Rule). */
export type UnnumberedRule = object;

/** Says whether a rule a stopped worker left is one of this set's (a hold that outlives its worker knows its own). */
export type Adopts = (rule: chrome.declarativeNetRequest.Rule) => boolean;

interface Owned {
  ids: number[];
  /** What the set last wrote; undefined until it has written once (its adopted rules are unknown to it). */
  shape: string | undefined;
  /** The array last written: the same one again is the same rules, known without serialising them. */
  written: readonly UnnumberedRule[] | undefined;
  adopts: Adopts | undefined;
}

export class SessionRules {
  private nextId = 1;
  private readonly sets: Owned[] = [];
  /**
   * Session rules outlive a stopped worker, so the first update clears what one left, but for the rules a set adopts:
   * those stand until that set's first update replaces them in the same call, so its hold has no gap across a restart.
   * Run after the holds' sets exist (they are made with the host, on the worker's first turn).
   */
  private updating: Promise<void> = Promise.resolve().then(() => this.sweep());

  /** A new, empty set of rules for one hold; `adopts`: the set takes over the rules of its own a stopped worker left. */
  set(adopts?: Adopts): RuleSet {
    const owned: Owned = { ids: [], shape: adopts ? undefined : '[]', written: undefined, adopts };
    this.sets.push(owned);
    return {
      replace: (rules) => {
        const next = this.updating.then(async () => {
          if (rules === owned.written) return;
          const wanted = JSON.stringify(rules);
          if (wanted !== owned.shape) {
            // A late removal can never take rules that replaced them: their ids are new.
            const addRules = rules.map((rule) => ({ id: this.nextId++, ...rule }));
            await chrome.declarativeNetRequest.updateSessionRules({
              removeRuleIds: owned.ids,
              addRules: addRules as unknown as chrome.declarativeNetRequest.Rule[],
            });
            owned.ids = addRules.map((rule) => rule.id);
            owned.shape = wanted;
          }
          owned.written = rules;
        });
        this.updating = next.catch(() => undefined);
        return next;
      },
    };
  }

  private async sweep(): Promise<void> {
    const stale = await chrome.declarativeNetRequest.getSessionRules().catch(() => []);
    this.nextId = Math.max(0, ...stale.map((rule) => rule.id)) + 1;
    const orphans: number[] = [];
    for (const rule of stale) {
      const owner = this.sets.find((owned) => owned.adopts?.(rule));
      if (owner) owner.ids.push(rule.id);
      else orphans.push(rule.id);
    }
    if (orphans.length === 0) return;
    await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: orphans }).catch(() => undefined);
  }
}

export interface RuleSet {
  /** Makes `rules` this set's rules; nothing is sent when they are the ones it has. Rejects when Chrome refused them. */
  replace(rules: UnnumberedRule[]): Promise<void>;
}

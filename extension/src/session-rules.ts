// The worker's declarativeNetRequest session rules, shared by every hold that keeps some: each owns a set of its own,
// swapped in one call (never a moment without it), ids never reused, updates one after another.

/** A rule as the holds write it, unnumbered; its fields are Chrome's (chrome.declarativeNetRequest.Rule). */
export type UnnumberedRule = object;

export class SessionRules {
  private nextId = 1;
  /** Session rules outlive a stopped worker, so the first update clears what one left. */
  private updating: Promise<void> = clearSessionRules();

  /** A new, empty set of rules for one hold. */
  set(): RuleSet {
    let ids: number[] = [];
    let shape = '[]';
    return {
      replace: (rules) => {
        const next = this.updating.then(async () => {
          const wanted = JSON.stringify(rules);
          if (wanted === shape) return;
          // A late removal can never take rules that replaced them: their ids are new.
          const addRules = rules.map((rule) => ({ id: this.nextId++, ...rule }));
          await chrome.declarativeNetRequest.updateSessionRules({
            removeRuleIds: ids,
            addRules: addRules as unknown as chrome.declarativeNetRequest.Rule[],
          });
          ids = addRules.map((rule) => rule.id);
          shape = wanted;
        });
        this.updating = next.catch(() => undefined);
        return next;
      },
    };
  }
}

export interface RuleSet {
  /** Makes `rules` this set's rules; nothing is sent when they are the ones it has. Rejects when Chrome refused them. */
  replace(rules: UnnumberedRule[]): Promise<void>;
}

async function clearSessionRules(): Promise<void> {
  const stale = await chrome.declarativeNetRequest.getSessionRules().catch(() => []);
  if (stale.length === 0) return;
  await chrome.declarativeNetRequest
    .updateSessionRules({ removeRuleIds: stale.map((rule) => rule.id) })
    .catch(() => undefined);
}

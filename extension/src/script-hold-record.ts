// When the script holds' rules stood in Chrome, per driven tab and with the origins they let through, kept a while after
// they came down: Chrome's word of a window they blocked may come after the hold ended (a busy machine), and is judged
// by the rules that met the window's request, not by those standing when the word arrives.
import { AllowedOrigins } from '../../shared/engine/egress-origins.js';

/*
 * How long a hold is remembered after it came down. Chrome tells of a window a moment after it opened (measured on
 * Chromium 156: onCreatedNavigationTarget within 30 ms of window.open, its blocked request's error within 150 ms);
 * this leaves a machine busy enough to hold those events back for tens of seconds room, and no more is kept.
 */
const KEPT_MS = 30_000;

/** One stretch of a tab's hold with the same origins: from when its rules were asked for to when their end landed. */
interface Stretch {
  from: number;
  /** Undefined while the rules still stand. */
  until?: number;
  origins: AllowedOrigins;
  /** The origins as given, to tell a change from none. */
  key: string;
}

export class ScriptHoldRecord {
  private readonly stretches = new Map<number, Stretch[]>();

  /**
   * Rules asked for at `asked` landed in Chrome at `landed`: `held` names each tab they hold with its own origins, and a
   * tab missing from it is held no longer. Times are wide on purpose (a hold counts from before it landed and until
   * after it ended): a window is only ever named when Chrome also says a rule blocked it.
   */
  landed(asked: number, landed: number, held: ReadonlyMap<number, readonly string[]>): void {
    for (const [tabId, stretches] of this.stretches) {
      const open = stretches.at(-1);
      if (open && open.until === undefined && open.key !== held.get(tabId)?.join(' ')) open.until = landed;
    }
    for (const [tabId, origins] of held) {
      const stretches = this.stretches.get(tabId) ?? [];
      const open = stretches.at(-1);
      const key = origins.join(' ');
      if (open && open.until === undefined && open.key === key) continue;
      stretches.push({ from: asked, origins: new AllowedOrigins(origins), key });
      this.stretches.set(tabId, stretches);
    }
    this.prune(landed);
  }

  /**
   * Whether a hold of `openerId` that does not let `url` through stood at some moment from `from` to `to` (a window's
   * navigation's start and its error: the rules met its request in between).
   */
  held(openerId: number, url: string, from: number, to = Infinity): boolean {
    return this.during(openerId, from, to).some((stretch) => !stretch.origins.allows(url));
  }

  /** Whether a hold of `openerId` stood at `at`, whatever it let through. */
  stood(openerId: number, at: number): boolean {
    return this.during(openerId, at, at).length > 0;
  }

  private during(openerId: number, from: number, to: number): Stretch[] {
    this.prune(Date.now());
    return (this.stretches.get(openerId) ?? []).filter(
      (stretch) => stretch.from <= to && from <= (stretch.until ?? Infinity),
    );
  }

  /** The tab is gone: no window it opened can be named to it any more. */
  forget(tabId: number): void {
    this.stretches.delete(tabId);
  }

  /** Drops the stretches no event can still refer to. */
  private prune(now: number): void {
    for (const [tabId, stretches] of this.stretches) {
      const kept = stretches.filter((stretch) => stretch.until === undefined || now - stretch.until < KEPT_MS);
      if (kept.length === 0) this.stretches.delete(tabId);
      else if (kept.length < stretches.length) this.stretches.set(tabId, kept);
    }
  }
}

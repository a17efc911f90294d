// What the host tells a driven tab's trail of the windows it opened (popup-events.ts), kept until the trail listens:
// after a re-attach (a restarted worker, a new session) the opener's trail starts only with its next eval, and a window
// held meanwhile is named in that eval's result rather than lost.
import type { CdpEvent } from '../../shared/engine/cdp.js';
import { POPUP_HELD } from '../../shared/engine/popup-events.js';
import type { DebuggerTab } from './debugger-tab.js';

/** As many as a result lists (egress-trail.ts LATE_LISTED): past it, more would not be shown. */
const KEPT_PER_OPENER = 50;

export class OpenerTells {
  /** What was held per opener tab while no trail listened there. */
  private readonly pending = new Map<number, Record<string, unknown>[]>();
  /** Attachments an agent's script was sent through: the engine's trail listens on them (egress-trail.ts). */
  private readonly listening = new WeakSet<DebuggerTab>();

  /** `live`: the opener's attachment, if any. */
  constructor(private readonly live: (tabId: number) => DebuggerTab | undefined) {}

  /** Hands `event` to the opener's stream; a hold told while no trail listens there waits for the next script. */
  tell(openerId: number, event: CdpEvent): void {
    const tab = this.live(openerId);
    if (tab && this.listening.has(tab)) return tab.dispatch(event.method, event.params, undefined);
    // A question (POPUP_OPENING) is answered at once or not at all: no trail there, so the script is not known there.
    if (event.method !== POPUP_HELD) return tab?.dispatch(event.method, event.params, undefined);
    const pending = this.pending.get(openerId) ?? [];
    if (pending.length < KEPT_PER_OPENER) pending.push(event.params);
    this.pending.set(openerId, pending);
  }

  /**
   * An agent's script is about to be sent through `tab`: its trail listens by now (an eval follows the tab before it
   * sends the script), and hears what was held meanwhile, which the eval's result names.
   */
  scriptSent(tab: DebuggerTab): void {
    this.listening.add(tab);
    const pending = this.pending.get(tab.tabId) ?? [];
    this.pending.delete(tab.tabId);
    for (const params of pending) tab.dispatch(POPUP_HELD, params, undefined);
  }

  /** The tab is gone: nothing is named to it any more. */
  forget(tabId: number): void {
    this.pending.delete(tabId);
  }
}

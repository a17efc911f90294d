// A listener the agent's script left on the page's unload, about to run. When the person closes the tab, what that
// listener sends (a keepalive fetch, a beacon) outlives the tab, and a request the tab's session paused to judge goes
// out as the session ends (measured on Chromium 156, in both backends: a closed tab's keepalive fetch and beacon, the
// page's key in both, reached their site). So the tab's hold stands before the listener runs: the renderer refuses
// its sends to other origins before they leave (egress-hold.ts), until the tab's next document or a few seconds.
import type { Cdp, CdpEvent } from './cdp.js';
import type { EgressWindow } from './egress-hold.js';
import type { Send } from './egress-ledger.js';
import type { Paused } from './srcdoc-setters.js';

/** The events a closing tab's page runs listeners for, whose sends may outlive it. */
const UNLOAD_EVENTS = ['beforeunload', 'pagehide', 'unload'];
/** How an event-listener breakpoint names its event in Debugger.paused. */
const PAUSED_NAMES = new Set(UNLOAD_EVENTS.map((eventName) => `listener:${eventName}`));
/*
 * Long enough for a closing tab's listeners to have started all they send; short, since a page that stays (a frame of
 * it went away, the person stayed at "Leave site?") has its own sends to other origins held meanwhile.
 */
export const UNLOAD_HOLD_MS = 10_000;

export class UnloadListeners {
  /** The hold standing for an unload, and what ends it early. */
  private holding: { window: Promise<EgressWindow | undefined>; timer: ReturnType<typeof setTimeout> } | undefined;

  /**
   * `byScript`: the paused stack is the agent's script's (or code it wrote). `open`: a window on the tab's hold.
   * `told`: what the hold stopped, for the next result.
   */
  constructor(
    private readonly cdp: Cdp,
    private readonly byScript: (sessionId: string | undefined, paused: Paused) => boolean,
    private readonly open: () => Promise<EgressWindow>,
    private readonly told: (sends: Send[]) => void,
  ) {}

  /** The listeners of a session's unload events pause from now on (with breakpoints active, as the trail keeps them). */
  async arm(sessionId: string | undefined): Promise<void> {
    await Promise.all(
      UNLOAD_EVENTS.map((eventName) =>
        this.cdp.send('DOMDebugger.setEventListenerBreakpoint', { eventName }, sessionId),
      ),
    );
  }

  /**
   * True when the event was an unload listener's pause, resumed here: at once for the page's own listener, and for the
   * script's once the hold stands. The tab's next document ends the hold.
   */
  onEvent(event: CdpEvent): boolean {
    if (event.method === 'Page.frameNavigated' && event.sessionId === undefined) {
      if ((event.params['frame'] as { parentId?: string }).parentId === undefined) this.release();
      return false;
    }
    if (event.method !== 'Debugger.paused') return false;
    const paused = event.params as unknown as Paused & { data?: { eventName?: string } };
    if (paused.reason !== 'EventListener' || !PAUSED_NAMES.has(paused.data?.eventName ?? '')) return false;
    const { sessionId } = event;
    const resume = () => void this.cdp.send('Debugger.resume', {}, sessionId).catch(() => undefined);
    if (!this.byScript(sessionId, paused)) resume();
    else void this.hold().finally(resume);
    return true;
  }

  /** The hold stands (again) for the next few seconds; settles once it does, or could not. */
  private async hold(): Promise<void> {
    if (this.holding) clearTimeout(this.holding.timer);
    const window = this.holding?.window ?? this.open().catch(() => undefined);
    this.holding = { window, timer: setTimeout(() => this.release(), UNLOAD_HOLD_MS) };
    await window;
  }

  private release(): void {
    const { holding } = this;
    if (!holding) return;
    this.holding = undefined;
    clearTimeout(holding.timer);
    void holding.window.then((window) => {
      if (!window) return;
      this.told(window.held());
      window.close();
    });
  }
}

// Whose listener a person's gesture ran last in a tab the agent's script reached. A window a link or a form with a
// target opens names no stack (Page.windowOpen, its first request: measured on Chromium 156), and the person's gesture
// makes it look theirs, even when a click listener the script left clicked the link. So the listeners of the events a
// gesture fires pause at their first statement (event-listener breakpoints), and the paused stack tells whose they are.
// The stack under a listener names who dispatched the event: a timer of the script's that clicks the page's element
// makes whatever the page's listener sends the script's, even sent a moment later through a channel V8 keeps no async
// stack across (a MessageChannel, the page's own queue: measured on Chromium 156).
import type { Cdp, CdpEvent } from './cdp.js';
import { pathListeners } from './event-path-listeners.js';
import { tellGesture, watchGestures } from './page/gesture-watch.js';
import { ScriptMarks } from './script-marks.js';
import { EVAL_ACTIVATION_MS } from './scripted-documents.js';
import { shippedCall } from './shipped-call.js';
import type { Paused } from './srcdoc-setters.js';

/**
 * The events a person's gesture fires, whose listeners run with its activation and may open a window with it. Not the
 * key events: a key listener paused made an editor lose the agent's own keys sent right behind it (CodeMirror and
 * Monaco kept their text through select-all and Delete, measured), so a key listener of the script's is not seen.
 */
const GESTURE_EVENTS = [
  'mousedown',
  'mouseup',
  'click',
  'auxclick',
  'dblclick',
  'contextmenu',
  'pointerdown',
  'pointerup',
  'touchstart',
  'touchend',
  'submit',
];
/**
 * How long after an event the script dispatched the tab's sends to other origins are the script's: what a listener
 * defers to a later task, unseen by V8's async stacks, goes within it (over-holds the page's own sends meanwhile, named).
 */
export const DISPATCH_MS = 2_000;
// Our listener's world and the URLs its code names: a pause in the teller is a dispatch told, not a listener's.
const WATCH_WORLD = '__chrome_mcp_gestures__';
const WATCH_URL = 'chrome-mcp-gestures://watch';
const TELLER_URL = 'chrome-mcp-gestures://tell';
// The watch's code is blackboxed, by its script id (a URL pattern would blackbox any code a script names so too): the
// listener breakpoint passes over it, and pauses in the teller when it is called.
const WHOLE_SCRIPT = [{ lineNumber: 0, columnNumber: 0 }];
// The events a script's timer makes an element's default action run with; ours tells each dispatch a script may make.
const WATCHED_EVENTS = ['click', 'auxclick', 'submit'];
const TELLER = '__chromeMcpTell';
const TELLER_SOURCE = `${shippedCall(tellGesture, JSON.stringify(TELLER))}\n//# sourceURL=${TELLER_URL}`;
const WATCH_ARGS = `${JSON.stringify(WATCHED_EVENTS)}, ${JSON.stringify(TELLER)}`;
const WATCH_SOURCE = `${shippedCall(watchGestures, WATCH_ARGS)}\n//# sourceURL=${WATCH_URL}`;

interface WatchFrame {
  callFrameId?: string;
  location: { scriptId: string };
}

export class GestureListeners {
  /** Until when a window opened with a gesture is the script's: its listener was the last a gesture ran. */
  private scriptUntil = 0;
  /** Until when a send of the tab to another origin is the script's: it dispatched a gesture's event. */
  private dispatchedUntil = 0;
  /** `session:scriptId` of our watch's code. */
  private readonly watches = new ScriptMarks();

  /** `byScript`: the paused stack is the agent's script's (or code it wrote: a handler, a written document's). */
  constructor(
    private readonly cdp: Cdp,
    private readonly byScript: (sessionId: string | undefined, paused: Paused) => boolean,
  ) {}

  /**
   * The listeners of a session's gesture events pause from now on. They pause only with breakpoints active, which the
   * trail turns on: the page's own `debugger;` statements then pause too, and the srcdoc setters resume them at once.
   */
  async arm(sessionId: string | undefined): Promise<void> {
    await Promise.all([
      ...GESTURE_EVENTS.map((eventName) =>
        this.cdp.send('DOMDebugger.setEventListenerBreakpoint', { eventName }, sessionId),
      ),
      // In the session's documents now and in each new one, before the page's own code (the teller first, as the watch
      // calls it): a dispatch a script may have made pauses once in ours, which asks whether the page listens on the
      // event's path, before any listener of the page's runs.
      ...[TELLER_SOURCE, WATCH_SOURCE].map((source) =>
        this.cdp.send(
          'Page.addScriptToEvaluateOnNewDocument',
          { source, worldName: WATCH_WORLD, runImmediately: true },
          sessionId,
        ),
      ),
    ]);
  }

  /**
   * True when the event was a listener's pause, noted here and resumed: at once for the page's, and for the script's
   * once the host holds the windows the tab opens (Cdp.holdWindows), as the listener may open one as soon as it runs.
   */
  onEvent(event: CdpEvent): boolean {
    const { sessionId } = event;
    if (event.method === 'Debugger.scriptParsed') this.onScript(event);
    if (event.method !== 'Debugger.paused') return false;
    const paused = event.params as unknown as Paused;
    if (paused.reason !== 'EventListener') return false;
    const resume = () => void this.cdp.send('Debugger.resume', {}, sessionId).catch(() => undefined);
    const [listener, ...under] = paused.callFrames;
    const dispatched = this.byScript(sessionId, { ...paused, callFrames: under });
    // Ours is no listener of anyone's: the window stays with whoever's listener ran last.
    if (this.watches.has(sessionId, listener?.location.scriptId)) {
      if (!dispatched) resume();
      // The script dispatched it: a listener of the page's on its path may send later (held until the page goes on).
      else
        void this.pageListens(sessionId, paused, listener!)
          .then(this.noteDispatch, () => this.noteDispatch(true))
          .finally(resume);
      return true;
    }
    // A listener of the page's the script's dispatch runs before ours (one on the window, capturing, added first).
    if (dispatched && !this.byScript(sessionId, { reason: paused.reason, callFrames: [listener!] }))
      this.noteDispatch(true);
    // A listener of the page's after one of the script's, in the same gesture, leaves the window to the page.
    if (!this.byScript(sessionId, paused)) {
      this.scriptUntil = 0;
      resume();
      return true;
    }
    this.scriptUntil = Date.now() + EVAL_ACTIVATION_MS;
    void (this.cdp.holdWindows?.() ?? Promise.resolve()).catch(() => undefined).finally(resume);
    return true;
  }

  /**
   * Ours are the scripts of our URLs in an isolated world: any code in the page's world can name itself by our URL
   * (a `sourceURL` comment), and taken for ours its listener would pass unseen. Only the page's own world is default.
   */
  private onScript({ params, sessionId }: CdpEvent): void {
    const url = String(params['url']);
    const world = params['executionContextAuxData'] as { isDefault?: boolean } | undefined;
    const ours = (url === WATCH_URL || url === TELLER_URL) && world?.isDefault === false;
    const scriptId = String(params['scriptId']);
    this.watches.parsed(sessionId, scriptId, () => ours);
    if (ours && url === WATCH_URL)
      void this.cdp
        .send('Debugger.setBlackboxedRanges', { scriptId, positions: WHOLE_SCRIPT }, sessionId)
        .catch(() => undefined);
  }

  private readonly noteDispatch = (pageListens: boolean): void => {
    if (pageListens) this.dispatchedUntil = Date.now() + DISPATCH_MS;
  };

  /**
   * Whether the event paused in our watch has a listener on its path that is neither ours nor the script's: only the
   * page's code may defer a send the stack no longer names, and the page's other sends meanwhile go on when none does.
   * A native listener (script 0: a bound postMessage) counts as the page's. A path that cannot be read counts as heard.
   */
  private async pageListens(sessionId: string | undefined, paused: Paused, watch: WatchFrame): Promise<boolean> {
    const path = await pathListeners(this.cdp, sessionId, watch.callFrameId);
    if (!path) return true;
    return path.listeners.some(
      (each) =>
        each.type === path.type &&
        !this.watches.has(sessionId, each.scriptId) &&
        !this.byScript(sessionId, { reason: paused.reason, callFrames: [{ location: { scriptId: each.scriptId } }] }),
    );
  }

  /**
   * The last listener a gesture ran, within its activation, was the script's: a window opened with a gesture is then
   * the script's. Over-holds the person's own click on a link when the script left a listener on the click that did
   * not open it (fails closed, and names it); a timer the script left that waits for a gesture is not seen.
   */
  scriptListened(): boolean {
    return Date.now() < this.scriptUntil;
  }

  /** The script dispatched a gesture's event within the last moments: the tab's sends to other origins are its. */
  scriptDispatched(): boolean {
    return Date.now() < this.dispatchedUntil;
  }
}

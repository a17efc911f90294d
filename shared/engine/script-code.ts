// Which code is the agent's script's, the one answer every stack the trail judges gets: each eval's (named by its
// sourceURL tag), the code a document it wrote runs or a handler it set (told by their own watchers), and whatever any
// of these compiles (eval, new Function, an inline <script> it inserts) or loads from a blob or data URL.
import type { Cdp, CdpEvent } from './cdp.js';
import { EvalSpans, type Parsed } from './eval-spans.js';
import { keepNewest } from './keep-newest.js';
import { fromScript, SCRIPT_TAG, type Initiator, type StackFrame, type StackTrace } from './script-initiator.js';
import { ScriptMarks } from './script-marks.js';

/** Where a frame is paused: at a call, the call's place in its script. */
export interface Location {
  scriptId: string;
  lineNumber: number;
  columnNumber: number;
}

/** Debugger.paused as the trail reads it: the frames paused in, and the async stack that led there. */
export interface PausedStack {
  callFrames: { location: { scriptId: string } }[];
  asyncStackTrace?: StackTrace;
  asyncStackTraceId?: unknown;
}

// The blob and data URLs the script's code loaded as scripts: far more than a script loads.
const KEPT_LOADS = 1_000;
// A URL of code written in the page, not fetched from a site: a module imported from one names no creator stack.
const WRITTEN_URL = /^(blob|data):/;
// Far more Function calls than are paused at once (one inside another's argument), kept per session.
const KEPT_COMPILES = 100;

/** A Function constructor's call, paused, whose code is not parsed yet. */
interface Compile {
  /** `scriptId:line:column` of the call. */
  at: string;
  /** The script's code made the call. */
  byScript: boolean;
  /** The pause has ended: only then can the call compile (a parse while paused is an evaluation of someone else's). */
  resumed: boolean;
}

export class ScriptCode {
  /** `session:scriptId` of each eval's script and of the code it compiled or loaded, as V8 parsed them. */
  private readonly known = new ScriptMarks();
  /** `session:url` of each blob or data script the script's code requested (each parse of it is the script's). */
  private readonly loads = new Set<string>();
  /** Per session, the Function constructors' calls paused whose code is not parsed yet, the latest last. */
  private readonly compiles = new Map<string | undefined, Compile[]>();
  /** What compiles while an eval's evaluate runs (a page's function's direct eval of what the script hands it). */
  readonly spans: EvalSpans;

  /** `also`: the script is the script's by another watcher's word (a written document's, a handler it set). */
  constructor(
    cdp: Cdp,
    private readonly also: (sessionId: string | undefined, scriptId: string) => boolean,
  ) {
    this.spans = new EvalSpans(cdp);
  }

  /**
   * Debugger.scriptParsed names the code that compiled a script (measured on Chromium 156: its top frame only, with or
   * without async stacks, for eval, new Function and an inline <script> inserted or written): a script the script's
   * code compiled is the script's, whatever its own URL, and so on down.
   */
  onEvent({ method, params, sessionId }: CdpEvent): void {
    if (method === 'Network.requestWillBeSent') return this.loading(sessionId, params);
    if (method === 'Debugger.resumed') {
      this.spans.resumed(sessionId);
      return this.compiles.get(sessionId)?.forEach((call) => (call.resumed = true));
    }
    const creator = params['stackTrace'] as StackTrace | undefined;
    // Code that did not compile ends its call's wait all the same.
    if (method === 'Debugger.scriptFailedToParse') return void this.compiled(sessionId, creator);
    if (method !== 'Debugger.scriptParsed') return;
    const url = String(params['url']);
    // Every parse moves the eval's span along, whatever else tells the code.
    const duringEval = this.spans.parsed(sessionId, params as unknown as Parsed);
    // The paused call is asked first: its wait ends whatever else makes the code the script's.
    this.known.parsed(
      sessionId,
      params['scriptId'],
      () =>
        this.compiled(sessionId, creator) ||
        url.startsWith(SCRIPT_TAG) ||
        duringEval ||
        this.loads.has(`${sessionId}:${url}`) ||
        this.initiator(sessionId, { type: 'script', stack: creator }),
    );
  }

  /**
   * A Function constructor's call is paused at `at` (script-compiles.ts), made by the script's code or not: the code it
   * compiles next, whose creator's top frame is that call, is the script's or not.
   */
  compiling(sessionId: string | undefined, at: Location, byScript: boolean): void {
    const compiles = this.compiles.get(sessionId) ?? [];
    compiles.push({ at: place(at), byScript, resumed: false });
    this.compiles.set(sessionId, compiles.slice(-KEPT_COMPILES));
  }

  /**
   * The paused call that compiled this code made it the script's. Measured on Chromium 150: its creator's top frame is
   * the call, at the same place; a call inside another's argument compiles first, so the latest at that place is it.
   * Code evaluated while the call is paused (the engine's own Runtime.evaluate) names the paused frame as its creator
   * too (measured on Chromium 156): it took the call's wait, and the call's code went untold. Only a resumed call counts.
   */
  private compiled(sessionId: string | undefined, creator: StackTrace | undefined): boolean {
    const top = creator?.callFrames[0];
    const compiles = this.compiles.get(sessionId);
    const index = top && compiles ? compiles.findLastIndex(({ at, resumed }) => resumed && at === place(top)) : -1;
    return index >= 0 && compiles!.splice(index, 1)[0]!.byScript;
  }

  /**
   * A module imported from a blob or data URL (or a <script> loading one) names no creator stack when parsed (measured
   * on Chromium 150), but its request's initiator is the code that loaded it: one the script's code loaded is the
   * script's. Only those: the page's own blob code stays the page's.
   */
  private loading(sessionId: string | undefined, params: Record<string, unknown>): void {
    const { url } = params['request'] as { url: string };
    if (params['type'] !== 'Script' || !WRITTEN_URL.test(url)) return;
    if (!this.initiator(sessionId, params['initiator'] as Initiator | undefined)) return;
    this.loads.add(`${sessionId}:${url}`);
    keepNewest(this.loads, KEPT_LOADS);
  }

  /** The script's code is on the initiator's stack, or on an async stack that led to it. */
  initiator(sessionId: string | undefined, initiator: Initiator | undefined): boolean {
    return fromScript(initiator, (frame) => this.frame(sessionId, frame));
  }

  /** The script's code is paused in, or on the async stack that led there. */
  paused(sessionId: string | undefined, paused: PausedStack): boolean {
    // A parent told by another target's debugger is not followed here: unknown, so the script's.
    if (paused.asyncStackTraceId !== undefined) return true;
    const frames = paused.callFrames.map(({ location }) => ({ url: '', scriptId: location.scriptId }));
    return this.initiator(sessionId, { type: 'script', stack: { callFrames: frames, parent: paused.asyncStackTrace } });
  }

  private frame(sessionId: string | undefined, frame: StackFrame): boolean {
    if (frame.url.startsWith(SCRIPT_TAG)) return true;
    const { scriptId } = frame;
    return scriptId !== undefined && (this.known.has(sessionId, scriptId) || this.also(sessionId, scriptId));
  }
}

function place({ scriptId, lineNumber, columnNumber }: Partial<Location>): string {
  return `${scriptId}:${lineNumber}:${columnNumber}`;
}

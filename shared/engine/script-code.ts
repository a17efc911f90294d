// Which code is the agent's script's, the one answer every stack the trail judges gets: each eval's (named by its
// sourceURL tag), the code a document it wrote runs or a handler it set (told by their own watchers), and whatever any
// of these compiles (eval, new Function, an inline <script> it inserts), however that code names itself.
import type { CdpEvent } from './cdp.js';
import { fromScript, SCRIPT_TAG, type Initiator, type StackFrame, type StackTrace } from './script-initiator.js';

/** Debugger.paused as the trail reads it: the frames paused in, and the async stack that led there. */
export interface PausedStack {
  callFrames: { location: { scriptId: string } }[];
  asyncStackTrace?: StackTrace;
  asyncStackTraceId?: unknown;
}

export class ScriptCode {
  /** `session:scriptId` of each eval's script and of the code it compiled, as V8 parsed them. */
  private readonly known = new Set<string>();

  /** `also`: the script is the script's by another watcher's word (a written document's, a handler it set). */
  constructor(private readonly also: (sessionId: string | undefined, scriptId: string) => boolean) {}

  /**
   * Debugger.scriptParsed names the code that compiled a script (measured on Chromium 156: its top frame only, with or
   * without async stacks, for eval, new Function and an inline <script> inserted or written): a script the script's
   * code compiled is the script's, whatever its own URL, and so on down.
   */
  onEvent({ method, params, sessionId }: CdpEvent): void {
    if (method !== 'Debugger.scriptParsed') return;
    const creator = params['stackTrace'] as StackTrace | undefined;
    if (String(params['url']).startsWith(SCRIPT_TAG) || this.initiator(sessionId, { type: 'script', stack: creator }))
      this.known.add(`${sessionId}:${params['scriptId']}`);
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
    return scriptId !== undefined && (this.known.has(`${sessionId}:${scriptId}`) || this.also(sessionId, scriptId));
  }
}

// Which requests an agent's script started: V8 names the sourceURL tag of every eval in each stack frame of its code, and
// Network.requestWillBeSent tells a request's initiator stack (async parents too) before Fetch pauses it.
import { keepNewest } from './keep-newest.js';

/** Every script eval runs carries this sourceURL, however late its code runs. */
export const SCRIPT_TAG = 'chrome-mcp-eval://';
/** The last line the engine adds to an agent's script (egress-trail.ts), before the script's own id. */
export const SCRIPT_TAG_LINE = `\n//# sourceURL=${SCRIPT_TAG}`;
/**
 * The sourceURL (`chrome-mcp-eval://…`, as Debugger.scriptParsed tells it) of the engine's eval of an agent's script: in
 * the session's own world, or handed to an indirect eval of a frame's. Undefined for any other command.
 */
export function scriptTag(method: string, params: Record<string, unknown>): string | undefined {
  const source =
    method === 'Runtime.evaluate'
      ? params['expression']
      : method === 'Runtime.callFunctionOn'
        ? (params['arguments'] as { value?: unknown }[] | undefined)?.[0]?.value
        : undefined;
  if (typeof source !== 'string') return undefined;
  const at = source.lastIndexOf(SCRIPT_TAG_LINE);
  return at < 0 ? undefined : SCRIPT_TAG + source.slice(at + SCRIPT_TAG_LINE.length);
}

/** The engine's eval of an agent's script (`scriptTag`). */
export function isTaggedScript(method: string, params: Record<string, unknown>): boolean {
  return scriptTag(method, params) !== undefined;
}

// Network.requestWillBeSent came before Fetch.requestPaused in every measurement; a request whose initiator is not
// told within this is held, not guessed at.
const VERDICT_MS = 1_000;
// Verdicts waiting for their paused request; a request that never pauses (same-origin data, cache hits) leaves one.
const KEPT_VERDICTS = 2_000;

export interface Verdict {
  tainted: boolean;
  /** As the Network domain names it (Fetch, XHR, Ping, Image…), or `navigation`. */
  kind: string;
}

export interface StackFrame {
  url: string;
  scriptId?: string;
  lineNumber?: number;
  columnNumber?: number;
}

export interface StackTrace {
  callFrames: StackFrame[];
  parent?: StackTrace;
}

export interface Initiator {
  type: string;
  stack?: StackTrace;
  url?: string;
}

/**
 * The script's code is on the initiator's stack, or on an async stack that led to it: `ours` tells a frame of it (by
 * default, one of an eval's own; script-code.ts knows what the script compiled too).
 */
export function fromScript(
  initiator: Initiator | undefined,
  ours: (frame: StackFrame) => boolean = (frame) => frame.url.startsWith(SCRIPT_TAG),
): boolean {
  for (let stack = initiator?.stack; stack; stack = stack.parent) {
    if (stack.callFrames.some(ours)) return true;
  }
  return initiator?.url !== undefined && ours({ url: initiator.url });
}

/** The verdict on each request, told by requestWillBeSent, for the Fetch pause that follows it. */
export class InitiatorVerdicts {
  private readonly verdicts = new Map<string, Verdict>();
  private readonly waiting = new Map<string, (verdict: Verdict) => void>();

  /** What requestWillBeSent told of `key` (a redirect reuses the id: its hop keeps the first verdict's taint). */
  told(key: string, verdict: Verdict): void {
    const waiter = this.waiting.get(key);
    if (waiter) return waiter(verdict);
    this.verdicts.set(key, verdict);
    keepNewest(this.verdicts, KEPT_VERDICTS);
  }

  /** The verdict told and not yet taken, if any. */
  peek(key: string): Verdict | undefined {
    return this.verdicts.get(key);
  }

  /** The verdict already told, taken; else undefined, and `then` hears it once told (tainted if not told in time). */
  take(key: string, kind: string, then: (verdict: Verdict) => void): Verdict | undefined {
    const known = this.verdicts.get(key);
    this.verdicts.delete(key);
    if (known !== undefined) return known;
    const timer = setTimeout(() => settle({ tainted: true, kind }), VERDICT_MS);
    const settle = (verdict: Verdict) => {
      clearTimeout(timer);
      this.waiting.delete(key);
      then(verdict);
    };
    this.waiting.set(key, settle);
    return undefined;
  }
}

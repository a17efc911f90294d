// A tab's console, kept in the engine: console API calls, uncaught exceptions and browser log entries of every frame
// and worker, in a ring bounded by count and bytes, so reading it costs no round trip per line.
//
// Why Runtime.enable here when the rest of the engine avoids it: console calls and exceptions are told only through
// Runtime events. Enabling it makes the debugger visible to pages that probe for one, so it happens only when the
// agent first reads a tab's console (an opt-in tool), and V8 replays what the page logged before that.
import type { Cdp, CdpEvent } from './cdp.js';
import type { DocumentPlace } from './policy-gate.js';
import { TabCapture } from './tab-capture.js';

export type ConsoleLevel = 'debug' | 'log' | 'info' | 'warn' | 'error';

export interface ConsoleEntry {
  seq: number;
  level: ConsoleLevel;
  text: string;
  /** Where the line came from, as the policy judges it when the line is read. */
  place: DocumentPlace;
  /** The frame that logged it, when it was a frame (a worker has none). */
  frameId: string | undefined;
  /** `file:line` of the call or the error, when the browser told it. */
  source: string | undefined;
  /** The session it came from: its lines go when its contexts are cleared. */
  sessionId: string | undefined;
}

const MAX_ENTRIES = 1_000;
const MAX_BYTES = 512 * 1024;
/** One line's text; the rest of a huge log line says nothing a model can use. */
const MAX_TEXT = 2_000;

const API_LEVELS: Record<string, ConsoleLevel> = {
  debug: 'debug',
  log: 'log',
  info: 'info',
  warning: 'warn',
  error: 'error',
  assert: 'error',
  trace: 'log',
  dir: 'log',
  table: 'log',
};

const LOG_LEVELS: Record<string, ConsoleLevel> = { verbose: 'debug', info: 'info', warning: 'warn', error: 'error' };

interface RemoteObject {
  type: string;
  subtype?: string;
  value?: unknown;
  unserializableValue?: string;
  description?: string;
}

interface ContextInfo {
  frameId: string | undefined;
  place: DocumentPlace;
}

export class ConsoleLog {
  private readonly entries: ConsoleEntry[] = [];
  private bytes = 0;
  private seq = 0;
  /** Execution contexts by session and id: which frame and document a line came from. */
  private readonly contexts = new Map<string, ContextInfo>();
  /** Worker sessions' own URLs (a worker's lines are judged by its script's URL). */
  private readonly workers = new Map<string, string>();
  private readonly capture: TabCapture;

  /** `sessions`: the sessions of the tab now (its own, its frames', its workers'). */
  constructor(
    private readonly cdp: Cdp,
    sessions: () => Promise<(string | undefined)[]>,
  ) {
    this.capture = new TabCapture(cdp, sessions, {
      enable: (sessionId) => this.enable(sessionId),
      onEvent: (event) => this.onEvent(event),
    });
  }

  /** Starts capture on every session of the tab, once; sessions that attach later are enabled as they come. */
  start(): Promise<void> {
    return this.capture.start();
  }

  dispose(): void {
    this.capture.dispose();
  }

  /** Lines after `since` (a seq), oldest first. */
  after(since: number): readonly ConsoleEntry[] {
    return this.entries.filter((entry) => entry.seq > since);
  }

  /** The newest seq so far (0 before any line). */
  last(): number {
    return this.seq;
  }

  private async enable(sessionId: string | undefined): Promise<void> {
    // A frame gone meanwhile answers with an error; the others go on.
    await Promise.all([
      // Off and on again: an eval's trail may have switched Runtime on already (egress-trail.ts), and V8 replays what
      // the page logged only when Runtime is switched on.
      this.cdp
        .send('Runtime.disable', {}, sessionId)
        .catch(() => undefined)
        .then(() => this.cdp.send('Runtime.enable', {}, sessionId))
        .catch(() => undefined),
      this.cdp.send('Log.enable', {}, sessionId).catch(() => undefined),
    ]);
  }

  private onEvent(event: CdpEvent): void {
    const { method, params, sessionId } = event;
    switch (method) {
      case 'Runtime.executionContextCreated':
        return this.contextCreated(params['context'] as Record<string, unknown>, sessionId);
      case 'Runtime.executionContextsCleared':
        return this.cleared(sessionId);
      case 'Runtime.consoleAPICalled':
        return this.consoleCalled(params, sessionId);
      case 'Runtime.exceptionThrown':
        return this.exceptionThrown(params['exceptionDetails'] as Record<string, unknown>, sessionId);
      case 'Log.entryAdded':
        return this.logEntry(params['entry'] as Record<string, unknown>, sessionId);
      case 'Target.attachedToTarget': {
        const info = params['targetInfo'] as { type: string; url: string };
        if (info.type !== 'iframe') this.workers.set(String(params['sessionId']), info.url);
        return;
      }
      case 'Target.detachedFromTarget':
        this.workers.delete(String(params['sessionId']));
        return;
    }
  }

  private contextCreated(context: Record<string, unknown>, sessionId: string | undefined): void {
    const aux = (context['auxData'] ?? {}) as { frameId?: string };
    const origin = typeof context['origin'] === 'string' && context['origin'] !== '' ? context['origin'] : undefined;
    const url = origin ?? '';
    this.contexts.set(`${sessionId ?? ''}:${String(context['id'])}`, {
      frameId: aux.frameId,
      place: { url, origin },
    });
  }

  /** A navigation or reload of a session's documents: what they logged goes with them (seed 004). */
  private cleared(sessionId: string | undefined): void {
    const kept = sessionId === undefined ? [] : this.entries.filter((entry) => entry.sessionId !== sessionId);
    this.entries.splice(0, this.entries.length, ...kept);
    this.bytes = kept.reduce((sum, entry) => sum + entry.text.length, 0);
    for (const key of [...this.contexts.keys()]) {
      if (sessionId === undefined || key.startsWith(`${sessionId}:`)) this.contexts.delete(key);
    }
  }

  private consoleCalled(params: Record<string, unknown>, sessionId: string | undefined): void {
    const args = (params['args'] ?? []) as RemoteObject[];
    const frame = (params['stackTrace'] as { callFrames?: CallFrame[] } | undefined)?.callFrames?.[0];
    this.push({
      level: API_LEVELS[String(params['type'])] ?? 'log',
      text: args.map(shown).join(' '),
      ...this.where(sessionId, params['executionContextId'], frame?.url),
      source: frame ? sourceOf(frame.url, frame.lineNumber) : undefined,
    });
  }

  private exceptionThrown(details: Record<string, unknown>, sessionId: string | undefined): void {
    const exception = details['exception'] as RemoteObject | undefined;
    const url = typeof details['url'] === 'string' ? details['url'] : undefined;
    this.push({
      level: 'error',
      text: exception?.description ?? String(details['text'] ?? 'exception'),
      ...this.where(sessionId, details['executionContextId'], url),
      source: url ? sourceOf(url, Number(details['lineNumber'] ?? 0)) : undefined,
    });
  }

  private logEntry(entry: Record<string, unknown>, sessionId: string | undefined): void {
    const url = typeof entry['url'] === 'string' ? entry['url'] : undefined;
    this.push({
      level: LOG_LEVELS[String(entry['level'])] ?? 'info',
      text: String(entry['text'] ?? ''),
      ...this.where(sessionId, undefined, url),
      source: url ? sourceOf(url, Number(entry['lineNumber'] ?? 0)) : undefined,
    });
  }

  /** The frame and document a line is judged by: its context's, else its worker's, else the script URL it names. */
  private where(
    sessionId: string | undefined,
    contextId: unknown,
    url: string | undefined,
  ): Pick<ConsoleEntry, 'frameId' | 'place' | 'sessionId'> {
    const context = contextId === undefined ? undefined : this.contexts.get(`${sessionId ?? ''}:${String(contextId)}`);
    if (context) return { ...context, sessionId };
    const worker = sessionId === undefined ? undefined : this.workers.get(sessionId);
    if (worker !== undefined) return { frameId: undefined, place: { url: worker }, sessionId };
    // A browser log entry names no context: the session's main-world context stands for it.
    const main = [...this.contexts.entries()].find(([key]) => key.startsWith(`${sessionId ?? ''}:`))?.[1];
    return { frameId: main?.frameId, place: main?.place ?? { url: url ?? '' }, sessionId };
  }

  private push(line: Omit<ConsoleEntry, 'seq'>): void {
    const text = line.text.length > MAX_TEXT ? `${line.text.slice(0, MAX_TEXT)}…` : line.text;
    this.entries.push({ ...line, text, seq: ++this.seq });
    this.bytes += text.length;
    while (this.entries.length > MAX_ENTRIES || this.bytes > MAX_BYTES) this.bytes -= this.entries.shift()!.text.length;
  }
}

interface CallFrame {
  url: string;
  lineNumber: number;
}

function sourceOf(url: string, line: number): string | undefined {
  if (url === '') return undefined;
  const file = url.split(/[?#]/)[0]!.split('/').pop() || url;
  // CDP counts lines from 0; people and editors from 1.
  return `${file}:${line + 1}`;
}

/** A console argument as DevTools prints it: strings bare, other values by their JSON or description. */
function shown(arg: RemoteObject): string {
  if (arg.type === 'string') return String(arg.value);
  if (arg.unserializableValue !== undefined) return arg.unserializableValue;
  if (arg.type === 'undefined') return 'undefined';
  if ('value' in arg && arg.type !== 'object') return JSON.stringify(arg.value);
  if (arg.subtype === 'null') return 'null';
  return arg.description ?? arg.type;
}

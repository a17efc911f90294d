// A typed client for the loopback control API: each call's input and output come from the declaration, and the
// activity stream arrives as parsed events. For scripts, tests, and the panel's model of how to talk to the core.
import { type ActivityEvent, ActivityEventSchema } from '../../../shared/control/activity.js';
import { CONTROL_API, type ControlCall, type ControlInput, type ControlOutput } from '../../../shared/control/api.js';
import { ControlError, ErrorBodySchema } from '../../../shared/control/errors.js';

export { readControlFile } from './control-file.js';

/** Calls whose every input field is optional may be made without an input. */
type InputArgs<N extends ControlCall> = Record<never, never> extends ControlInput<N> ? [input?: ControlInput<N>] : [input: ControlInput<N>];

export interface ControlClient {
  call<N extends ControlCall>(name: N, ...input: InputArgs<N>): Promise<ControlOutput<N>>;
  /** Events after `since` (a seq; omitted: from now on), until `signal` aborts or the server closes the stream. */
  events(since?: number, signal?: AbortSignal): AsyncIterable<ActivityEvent>;
}

export function createControlClient({ port, token }: { port: number; token: string }): ControlClient {
  const base = `http://127.0.0.1:${port}/api`;
  const authorization = `Bearer ${token}`;
  return {
    async call(name, ...[input]) {
      const response = await fetch(`${base}/${name}`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(input ?? {}),
      });
      const body: unknown = await response.json().catch(() => undefined);
      if (!response.ok) throw refusal(response.status, body);
      return CONTROL_API[name].output.parse(body) as ControlOutput<typeof name>;
    },
    async *events(since, signal) {
      const query = since === undefined ? '' : `?since=${since}`;
      const response = await fetch(`${base}/events${query}`, { headers: { authorization }, ...(signal ? { signal } : {}) });
      if (!response.ok || !response.body) throw refusal(response.status, await response.json().catch(() => undefined));
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffered = '';
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          buffered += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = buffered.indexOf('\n\n')) >= 0) {
            const data = eventData(buffered.slice(0, end));
            buffered = buffered.slice(end + 2);
            if (data !== undefined) yield ActivityEventSchema.parse(JSON.parse(data));
          }
        }
      } finally {
        await reader.cancel().catch(() => undefined);
      }
    },
  };
}

/** The `data:` lines of one server-sent event block; undefined for a comment (heartbeat). */
function eventData(block: string): string | undefined {
  const lines = block.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, ''));
  return lines.length ? lines.join('\n') : undefined;
}

function refusal(status: number, body: unknown): ControlError {
  const parsed = ErrorBodySchema.safeParse(body);
  return parsed.success ? new ControlError(parsed.data.error.code, parsed.data.error.message) : new ControlError('INTERNAL', `The control API answered HTTP ${status}.`);
}

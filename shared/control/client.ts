// A typed client for the control API: each call's input and output come from the declaration, and the activity stream
// arrives as parsed events. `ControlClient` is what every person-facing surface holds (the panel over loopback HTTP or
// Electron IPC, scripts, tests); `createControlClient` is its loopback HTTP form, for Node and the browser alike.
import { type ActivityEvent, ActivityEventSchema } from './activity.js';
import { CONTROL_API, type ControlCall, type ControlInput, type ControlOutput } from './api.js';
import { ControlError, ErrorBodySchema } from './errors.js';

/** Calls whose every input field is optional may be made without an input. */
export type InputArgs<N extends ControlCall> =
  Record<never, never> extends ControlInput<N> ? [input?: ControlInput<N>] : [input: ControlInput<N>];

export interface ControlClient {
  call<N extends ControlCall>(name: N, ...input: InputArgs<N>): Promise<ControlOutput<N>>;
  /** Events after `since` (a seq; omitted: from now on), until `signal` aborts or the server closes the stream. */
  events(since?: number, signal?: AbortSignal): AsyncIterable<ActivityEvent>;
}

/** The control server's origin on this machine. */
export function loopbackOrigin(port: number): string {
  return `http://127.0.0.1:${port}`;
}

/** `origin`: where the control server listens (see loopbackOrigin); `token`: the one in its control.json. */
export function createControlClient({ origin, token }: { origin: string; token: string }): ControlClient {
  const base = `${origin}/api`;
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
      const response = await fetch(`${base}/events${query}`, {
        headers: { authorization },
        ...(signal ? { signal } : {}),
      });
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
  const lines = block
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''));
  return lines.length ? lines.join('\n') : undefined;
}

function refusal(status: number, body: unknown): ControlError {
  const parsed = ErrorBodySchema.safeParse(body);
  return parsed.success
    ? new ControlError(parsed.data.error.code, parsed.data.error.message)
    : new ControlError('INTERNAL', `The control API answered HTTP ${status}.`);
}

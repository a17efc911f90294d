// The control API over Electron IPC as a ControlClient: the app's preload hands the panel a ControlBridge carrying
// plain data, and this side validates every output and event against the declaration, as the HTTP client does.
import { type ActivityEvent, ActivityEventSchema } from '../../shared/control/activity.js';
import { CONTROL_API, type ControlOutput } from '../../shared/control/api.js';
import type { ControlClient } from '../../shared/control/client.js';
import { ControlError, ErrorBodySchema } from '../../shared/control/errors.js';
import type { ControlBridge } from '../../shared/control/ipc.js';

export function bridgeClient(bridge: ControlBridge): ControlClient {
  return {
    async call(name, ...[input]) {
      let output: unknown;
      try {
        output = await bridge.call(name, input ?? {});
      } catch (error) {
        throw refusal(error);
      }
      return CONTROL_API[name].output.parse(output) as ControlOutput<typeof name>;
    },
    events: (since, signal) => bridgeEvents(bridge, since, signal),
  };
}

/** The main process rejects with `{ code, message }`; anything else is a transport failure, not a refusal. */
function refusal(error: unknown): ControlError {
  const parsed = ErrorBodySchema.shape.error.safeParse(error);
  if (parsed.success) return new ControlError(parsed.data.code, parsed.data.message);
  return new ControlError(
    'INTERNAL',
    `The app did not answer: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/** Push (the bridge's listener) turned into pull (an async iterable), ending when `signal` aborts. */
async function* bridgeEvents(
  bridge: ControlBridge,
  since: number | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<ActivityEvent> {
  const queue: unknown[] = [];
  let wake: (() => void) | undefined;
  const unsubscribe = bridge.subscribe(since, (event) => {
    queue.push(event);
    wake?.();
  });
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort);
  try {
    while (!signal?.aborted) {
      if (queue.length) {
        yield ActivityEventSchema.parse(queue.shift());
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    unsubscribe();
  }
}

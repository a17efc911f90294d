// ctx.progress for one tools/call: notifications/progress when the client sent a progressToken, a no-op otherwise.
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { OperationContext } from '../../../shared/protocol/operations.js';

export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * The spec wants the value to grow with every notification, and reports interleave: a batch counts steps
 * (done/total) while the step inside it reports bare messages. A report that does not move the count moves it
 * halfway to the next whole step, so every message is sent, the value always grows, and a step's own
 * messages never overtake the batch's count. The last known total carries over to reports that give none.
 */
function nextValue(last: number | undefined, done: number | undefined): number {
  if (done !== undefined && (last === undefined || done > last)) return done;
  const from = last ?? 0;
  const halfway = from + (Math.floor(from) + 1 - from) / 2;
  // Floating point runs out of halves after ~50 bare reports in one step: then take a whole step.
  return halfway > from ? halfway : from + 1;
}

export function progressReporter(extra: CallExtra): OperationContext['progress'] {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return () => undefined;
  let last: number | undefined;
  let lastTotal: number | undefined;
  return (message, done, total) => {
    last = nextValue(last, done);
    lastTotal = total ?? lastTotal;
    const params =
      lastTotal === undefined
        ? { progressToken, progress: last, message }
        : { progressToken, progress: last, total: lastTotal, message };
    // A lost progress line must never fail the operation it describes.
    extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
  };
}

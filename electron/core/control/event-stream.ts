// `GET /api/events`: the activity stream as server-sent events, read by the panel with fetch (EventSource cannot send
// the Authorization header), kept alive by heartbeat comments and dropped if the reader stops reading.
import type { ServerResponse } from 'node:http';
import type { ActivityEvent } from '../../../shared/control/activity.js';
import { ControlError } from '../../../shared/control/errors.js';
import type { ActivityListener } from './activity.js';

export const HEARTBEAT_MS = 15_000;
/** Events queued for a reader that is not reading; past this it is cut off rather than held in memory. */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

export interface ActivitySource {
  subscribe(listener: ActivityListener, since?: number): () => void;
}

/** `?since=N` as a seq, or undefined for live events only. */
export function parseSince(params: URLSearchParams): number | undefined {
  const since = params.get('since');
  if (since === null) return undefined;
  if (!/^\d{1,15}$/.test(since))
    throw new ControlError('BAD_ARGS', 'events: since must be an event seq (a whole number).');
  return Number(since);
}

/** Streams events into `response` until the reader goes or `end` is called; returns `end`. */
export function streamEvents(
  response: ServerResponse,
  source: ActivitySource,
  since: number | undefined,
  heartbeatMs: number,
): () => void {
  response.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  // A comment first, so the reader's fetch resolves now rather than at the first event.
  response.write(': chrome-mcp activity\n\n');
  const send = (text: string) => {
    response.write(text);
    if (response.writableLength > MAX_QUEUED_BYTES) response.destroy();
  };
  const unsubscribe = source.subscribe(
    (event: ActivityEvent) => send(`id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`),
    since,
  );
  const heartbeat = setInterval(() => send(': heartbeat\n\n'), heartbeatMs);
  const end = () => {
    clearInterval(heartbeat);
    unsubscribe();
    response.end();
  };
  response.once('close', end);
  return end;
}

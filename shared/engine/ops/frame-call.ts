// A request the agent sends from inside a frame (network_replay, api_call): judged as an act where the frame stands and
// where the request goes, fetched by the frame itself under the act window (so the gate holds a send exactly as it
// holds the page's own), and answered with its status and a capped body. No credential is read or passed here.
import { ToolError } from '../../protocol/errors.js';
import type { OperationResult } from '../../protocol/operations.js';
import type { Frame } from '../frames.js';
import { frameOrigin, urlOrigin } from '../frame.js';
import { base64Of } from '../gate/paused-body.js';
import { fetchInFrame, type FrameRequest } from '../gate/replay.js';
import type { PageContext } from '../page-context.js';
import { bytes } from './network.js';

export const DEFAULT_ANSWER_CHARS = 4_000;

export type QueryOverrides = Record<string, string | number | boolean | null>;

/** `url` with each key set (null: removed). */
export function withQuery(url: string, query: QueryOverrides | undefined): string {
  if (query === undefined) return url;
  const parsed = new URL(url);
  for (const [key, value] of Object.entries(query)) {
    if (value === null) parsed.searchParams.delete(key);
    else parsed.searchParams.set(key, String(value));
  }
  return parsed.href;
}

/** A body argument as sent: a string as it is, any other JSON value as JSON (and says so by its content type). */
export function bodyArgument(body: unknown): { base64: string; json: boolean } {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { base64: base64Of(new TextEncoder().encode(text)), json: typeof body !== 'string' };
}

/**
 * Judges, then sends. Both ends must allow an act: the frame's site (whose cookies sign the request) and the site it
 * goes to. `what` leads the answer (`#7 POST …`).
 */
export async function callFromFrame(
  page: PageContext,
  frame: Frame,
  request: FrameRequest,
  what: string,
  maxChars: number,
): Promise<OperationResult> {
  page.gate.require(page.frames.placeOf(frame), 'act', frame.ordinal === 0 ? undefined : `Frame f${frame.ordinal}`);
  page.gate.require({ url: request.url }, 'act');
  // The act window judges what the frame now sends: a write that sends as the person is held for them.
  page.input.note({ frame });
  await page.input.beforeAct();
  const answer = await fetchInFrame(page, frame, request, maxChars);
  const from = `${what} from f${frame.ordinal}`;
  if (answer.status === undefined) return { text: `${from}: no answer (${answer.error ?? 'none'})`, data: {} };
  const lines = [`${from} → ${answer.status}${answer.type ? ` ${answer.type.split(';')[0]}` : ''}`];
  if (answer.body === undefined) {
    if (answer.total !== undefined) lines.push(`(${bytes(answer.total)} of binary data, not shown)`);
  } else {
    lines.push(answer.body);
    const more = (answer.total ?? 0) - answer.body.length;
    if (more > 0) lines.push(`… ${more} more chars (raise maxChars)`);
  }
  return { text: lines.join('\n'), data: { status: answer.status } };
}

/** The frame that made a request, while it still shows a document of the same origin. */
export async function frameOfRequest(
  page: PageContext,
  frameId: string | undefined,
  documentUrl: string,
  id: number,
): Promise<Frame> {
  const frame = (await page.frames.list()).find((each) => each.frameId === frameId);
  const was = urlOrigin(documentUrl);
  if (!frame || frameOrigin(frame) !== was) {
    throw new ToolError('FRAME_NOT_FOUND', `The frame that made #${id} is gone or shows another site now.`, {
      next: 'Do again in the page what made the request, then replay the new one (`network` lists it).',
    });
  }
  return frame;
}

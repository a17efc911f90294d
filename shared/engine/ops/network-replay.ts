// network_replay: a captured request sent again from the frame that made it, its body taken from the browser (the log
// keeps none), its query and body changed where the call says; the frame's own cookies sign it (ops/frame-call.ts).
import { ToolError } from '../../protocol/errors.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { NetworkReplayArgs } from '../../tools/args.js';
import { contentType } from '../gate/paused-body.js';
import { requestBody } from '../network-log.js';
import type { PageContext } from '../page-context.js';
import { bodyArgument, callFromFrame, DEFAULT_ANSWER_CHARS, frameOfRequest, withQuery } from './frame-call.js';
import { recordFor } from './network.js';

/** The most of a captured body a replay carries: what an API call sends, not an upload. */
export const MAX_REPLAY_BODY_CHARS = 1024 * 1024;

export async function networkReplay(
  page: PageContext,
  args: NetworkReplayArgs,
  _ctx: OperationContext,
): Promise<OperationResult> {
  const record = recordFor(page, args.id);
  if (record.type === 'Document') {
    throw new ToolError('BAD_ARGS', `#${record.id} is a page load, not a request a frame made.`, {
      next: 'Use `navigate` to load a page again, or replay an XHR/fetch request from `network`.',
    });
  }
  const frame = await frameOfRequest(page, record.frameId, record.place.url, record.id);
  const headers = { ...record.requestHeaders };
  let postData: string | undefined;
  if (args.body !== undefined) {
    const body = bodyArgument(args.body);
    postData = body.base64;
    if (body.json && !contentType(headers)) headers['Content-Type'] = 'application/json';
  } else {
    const kept = await requestBody(page.cdp, record, MAX_REPLAY_BODY_CHARS);
    if ('base64' in kept) postData = kept.base64;
    else if (record.hasPostData) {
      throw new ToolError('BAD_ARGS', `#${record.id} cannot be replayed as it was: ${kept.none}.`, {
        next: 'Pass the body to send as `body`.',
      });
    }
  }
  const url = withQuery(record.url, args.query);
  return callFromFrame(
    page,
    frame,
    { method: record.method, url, headers, postData, cookies: (record.cookies ?? 0) > 0 },
    `replayed #${record.id} ${record.method} ${url}`,
    args.maxChars ?? DEFAULT_ANSWER_CHARS,
  );
}

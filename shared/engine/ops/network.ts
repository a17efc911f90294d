// network and network_get: the tab's captured requests (network-log.ts), filtered, each judged by the policy where
// the document that made it stands; one request's headers and, on demand, its body from Chrome's own buffer.
import { ToolError } from '../../protocol/errors.js';
import { CdpCommandError } from '../cdp.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { NetworkArgs, NetworkGetArgs } from '../../tools/args.js';
import { bodyText, requestBody, type NetworkRecord } from '../network-log.js';
import type { PageContext } from '../page-context.js';
import { framesFor } from '../targets.js';

const DEFAULT_LIMIT = 50;
const DEFAULT_BODY_CHARS = 8_000;
// A request body larger than this is named by size only: the browser would hand it over whole.
const MAX_REQUEST_BODY_CHARS = 1_000_000;
/** A URL in a listing: the rest is a query string the model can read whole with network_get. */
const URL_CHARS = 200;

export async function networkList(
  page: PageContext,
  args: NetworkArgs,
  _ctx: OperationContext,
): Promise<OperationResult> {
  const frames = await page.frames.list();
  const ordinals = new Map(frames.map((frame) => [frame.frameId, frame.ordinal]));
  const only =
    args.frame === undefined ? undefined : new Set((await framesFor(page, args.frame)).map((f) => f.frameId));
  const method = args.method?.toUpperCase();
  const type = args.type?.toLowerCase();
  const readable = page.gate.judgeEach('read');
  let omitted = 0;
  const wanted = page.network.list().filter((record) => {
    if (record.id <= (args.since ?? 0)) return false;
    if (args.url !== undefined && !record.url.includes(args.url)) return false;
    if (method !== undefined && record.method !== method) return false;
    if (args.status !== undefined && record.status !== args.status) return false;
    if (type !== undefined && record.type.toLowerCase() !== type) return false;
    if (only && (record.frameId === undefined || !only.has(record.frameId))) return false;
    if (readable(record.place)) return true;
    omitted++;
    return false;
  });
  const shown = wanted.slice(-(args.limit ?? DEFAULT_LIMIT));
  const last = page.network.last();
  const head = [
    `network: ${shown.length} request${shown.length === 1 ? '' : 's'}`,
    wanted.length > shown.length ? `, ${wanted.length - shown.length} earlier not shown (raise limit)` : '',
    omitted > 0 ? `, ${omitted} made by sites the policy keeps from you left out` : '',
    `; since=${last} lists only newer ones`,
  ].join('');
  return {
    text: [head, ...shown.map((record) => row(record, ordinals))].join('\n'),
    data: { last, shown: shown.length, omitted },
  };
}

export async function networkGet(
  page: PageContext,
  args: NetworkGetArgs,
  _ctx: OperationContext,
): Promise<OperationResult> {
  const record = recordFor(page, args.id);
  const lines = [
    `#${record.id} ${record.method} ${record.url}`,
    `status: ${record.status ?? (record.failed ? `failed (${record.failed})` : 'pending')}`,
    ...(record.routed ? [`routed: ${record.routed.how} by route ${record.routed.route}`] : []),
    'request headers:',
    ...headerLines(record.requestHeaders),
  ];
  const maxChars = args.maxChars ?? DEFAULT_BODY_CHARS;
  if (record.hasPostData)
    lines.push(
      ...(args.body ? await requestBodyLines(page, record, maxChars) : ['(it sent a body: body=true shows it)']),
    );
  if (record.responseHeaders) lines.push('response headers:', ...headerLines(record.responseHeaders));
  if (args.body) lines.push(...(await bodyLines(page, record, maxChars)));
  return { text: lines.join('\n') };
}

/** A request of the log by its #id, when the policy lets the model read where it was made. */
export function recordFor(page: PageContext, id: number): NetworkRecord {
  const record = page.network.byId(id);
  if (!record || !page.gate.allows(record.place, 'read')) {
    throw new ToolError('NOT_FOUND', `No request #${id} in this tab's log.`, {
      next: 'Call `network` for the ids it has; the oldest fall out of the log as new ones come.',
    });
  }
  return record;
}

function row(record: NetworkRecord, ordinals: ReadonlyMap<string, number>): string {
  const ordinal = record.frameId === undefined ? undefined : ordinals.get(record.frameId);
  const status = record.failed ? `failed(${record.failed})` : String(record.status ?? '…');
  const url = record.url.length > URL_CHARS ? `${record.url.slice(0, URL_CHARS)}…` : record.url;
  return [
    `#${record.id}`,
    record.method,
    status,
    record.type.toLowerCase(),
    ...(record.routed ? [`${record.routed.how}:${record.routed.route}`] : []),
    ...(ordinal ? [`f${ordinal}`] : []),
    ...(record.size !== undefined ? [bytes(record.size)] : []),
    ...(record.ms !== undefined ? [`${record.ms}ms`] : []),
    url,
  ].join(' ');
}

function headerLines(headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`);
}

/** The body the request sent, as Chrome still holds it, by the same rule as the response's: its site must be readable. */
async function requestBodyLines(page: PageContext, record: NetworkRecord, maxChars: number): Promise<string[]> {
  if (!page.gate.allows({ url: record.url }, 'read'))
    return ['request body: not shown (the policy keeps that site from you)'];
  const kept = await requestBody(page.cdp, record, MAX_REQUEST_BODY_CHARS);
  if ('none' in kept) return [`request body: not available (${kept.none})`];
  const text = bodyText(kept);
  if (text === undefined)
    return [`request body: ${bytes(Math.floor((kept.base64.length * 3) / 4))} of binary data, not shown`];
  const more = text.length - maxChars;
  return [
    'request body:',
    text.slice(0, maxChars),
    ...(more > 0 ? [`… ${more} more chars: network_get id=${record.id} body=true maxChars=…`] : []),
  ];
}

/** The response body as Chrome kept it; a body from a site the policy keeps from the model is never fetched. */
async function bodyLines(page: PageContext, record: NetworkRecord, maxChars: number): Promise<string[]> {
  if (!page.gate.allows({ url: record.url }, 'read')) return ['body: not shown (the policy keeps that site from you)'];
  let body: { body: string; base64Encoded: boolean };
  try {
    body = await page.cdp.send('Network.getResponseBody', { requestId: record.requestId }, record.sessionId);
  } catch (error) {
    // The browser's own words say which: no body, still loading, or evicted from its buffer.
    const why = error instanceof CdpCommandError ? error.cdpMessage : String(error);
    return [`body: not available (${why.slice(0, 200)})`];
  }
  if (body.base64Encoded) return [`body: ${bytes(Math.floor((body.body.length * 3) / 4))} of binary data, not shown`];
  const more = body.body.length - maxChars;
  return [
    'body:',
    body.body.slice(0, maxChars),
    ...(more > 0 ? [`… ${more} more chars: network_get id=${record.id} body=true maxChars=…`] : []),
  ];
}

/** A size as listings show it: B, KB or MB. */
export function bytes(n: number): string {
  return n < 1024 ? `${n}B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)}KB` : `${(n / 1024 / 1024).toFixed(1)}MB`;
}

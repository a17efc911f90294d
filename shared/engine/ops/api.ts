// api_learn and api_call: the tab's captured XHR/fetch traffic as a catalog of endpoints (api-catalog.ts), names and
// types only; and one call to such an endpoint, sent from inside the frame that uses it, with that frame's headers.
import { ToolError } from '../../protocol/errors.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { ApiCallArgs, ApiLearnArgs } from '../../tools/args.js';
import { endpointFor, isApiRequest, learnEndpoints, type Endpoint } from '../api-catalog.js';
import type { Frame } from '../frames.js';
import { contentType } from '../gate/paused-body.js';
import { bodyText, requestBody, type NetworkRecord } from '../network-log.js';
import type { PageContext } from '../page-context.js';
import { framesFor, oneFrame } from '../targets.js';
import { bodyArgument, callFromFrame, DEFAULT_ANSWER_CHARS, withQuery } from './frame-call.js';
import { frameOrigin, urlOrigin } from '../frame.js';

// Bodies are read for their shape only: the newest few, each small.
const MAX_BODIES = 50;
const MAX_SHAPE_BODY_CHARS = 64 * 1024;
const MAX_ENDPOINTS = 200;

export async function apiLearn(
  page: PageContext,
  args: ApiLearnArgs,
  _ctx: OperationContext,
): Promise<OperationResult> {
  const frames = await page.frames.list();
  const only =
    args.frame === undefined ? undefined : new Set((await framesFor(page, args.frame)).map((f) => f.frameId));
  const records = apiRecords(page).filter(
    (record) => only === undefined || (record.frameId !== undefined && only.has(record.frameId)),
  );
  const bodies = await readBodies(page, records);
  const endpoints = learnEndpoints(records, bodies);
  const ordinals = new Map(frames.map((frame) => [frame.frameId, frame.ordinal]));
  const shown = endpoints.slice(-MAX_ENDPOINTS);
  const head = [
    `api: ${endpoints.length} endpoint${endpoints.length === 1 ? '' : 's'} from ${records.length} XHR/fetch requests`,
    endpoints.length > shown.length ? ` (the newest ${shown.length} shown)` : '',
    '; values never shown, query and body as key:type',
    endpoints.length === 0 ? '. Use the page (or `navigate`) so it calls its API, then call api_learn again.' : '',
  ].join('');
  return { text: [head, ...shown.map((endpoint) => line(endpoint, ordinals))].join('\n') };
}

export async function apiCall(page: PageContext, args: ApiCallArgs, _ctx: OperationContext): Promise<OperationResult> {
  const { method, path } = methodAndPath(args);
  const learned = learnEndpoints(apiRecords(page), new Map());
  const named = args.frame === undefined ? undefined : await oneFrame(page, args.frame);
  const { url, endpoint } = resolve(path, method, learned, named ? named.frameId : undefined);
  const frame = named ?? (await frameOf(page, endpoint));
  const origins = new Set([
    frameOrigin(frame),
    ...learned.filter((each) => each.frameId === frame.frameId).map((each) => each.origin),
  ]);
  const target = urlOf(url ?? path, frame.url);
  if (!origins.has(target.origin)) {
    throw new ToolError(
      'BAD_ARGS',
      `f${frame.ordinal} does not call ${target.origin}: api_call stays on the origins a frame uses.`,
      {
        next: "Call a path of the frame's own site, or an origin `api_learn` lists for that frame.",
      },
    );
  }
  const sample = endpoint?.sample ?? newestTo(page, frame, target.origin);
  const headers: Record<string, string> = Object.fromEntries(
    Object.entries(sample?.requestHeaders ?? {}).filter(([name]) => name.toLowerCase() !== 'content-type'),
  );
  let postData: string | undefined;
  if (args.body !== undefined) {
    const body = bodyArgument(args.body);
    postData = body.base64;
    headers['Content-Type'] = body.json
      ? 'application/json'
      : contentType(sample?.requestHeaders ?? {}) || 'text/plain';
  }
  const sent = withQuery(target.href, args.query);
  return callFromFrame(
    page,
    frame,
    { method, url: sent, headers, postData, cookies: (sample?.cookies ?? 0) > 0 },
    `${method} ${sent}`,
    args.maxChars ?? DEFAULT_ANSWER_CHARS,
  );
}

/** The XHR/fetch requests the model may know of: made where it may read, and to a site it may read. */
function apiRecords(page: PageContext): NetworkRecord[] {
  const readable = page.gate.judgeEach('read');
  return page.network
    .list()
    .filter((record) => isApiRequest(record) && readable(record.place) && readable({ url: record.url }));
}

async function readBodies(page: PageContext, records: readonly NetworkRecord[]): Promise<Map<number, string>> {
  const withBody = records.filter((record) => record.hasPostData).slice(-MAX_BODIES);
  const read = await Promise.all(
    withBody.map(async (record) => [record.id, await requestBody(page.cdp, record, MAX_SHAPE_BODY_CHARS)] as const),
  );
  const bodies = new Map<number, string>();
  for (const [id, body] of read) {
    const text = 'base64' in body ? bodyText(body) : undefined;
    if (text !== undefined) bodies.set(id, text);
  }
  return bodies;
}

function line(endpoint: Endpoint, ordinals: ReadonlyMap<string, number>): string {
  const documentOrigin = urlOrigin(endpoint.sample.place.url);
  const where = endpoint.origin === documentOrigin ? endpoint.template : `${endpoint.origin}${endpoint.template}`;
  const ordinal = endpoint.frameId === undefined ? undefined : ordinals.get(endpoint.frameId);
  return [
    `${endpoint.method} ${where}`,
    ...(endpoint.query.length > 0 ? [`?${endpoint.query.join('&')}`] : []),
    ...(endpoint.body !== undefined ? [`body ${endpoint.body}`] : []),
    `→ ${endpoint.status}`,
    `auth ${endpoint.auth}`,
    ordinal === undefined ? 'frame gone' : `f${ordinal}`,
    ...(endpoint.count > 1 ? [`×${endpoint.count}`] : []),
  ].join(' ');
}

/** `path` against `base`; a path no URL can be made of is the caller's to fix. */
function urlOf(path: string, base: string): URL {
  try {
    return new URL(path, base);
  } catch {
    throw new ToolError('BAD_ARGS', `api_call: ${JSON.stringify(path.slice(0, 200))} is not a path or URL.`, {
      next: 'Pass a path such as "/api/items/7", or a whole URL on an origin the frame uses.',
    });
  }
}

function methodAndPath(args: ApiCallArgs): { method: string; path: string } {
  const said = args.endpoint === undefined ? undefined : /^\s*([A-Za-z]+)\s+(\S+)\s*$/.exec(args.endpoint);
  if (args.endpoint !== undefined && (!said || args.method !== undefined || args.path !== undefined)) {
    throw new ToolError('BAD_ARGS', 'api_call takes endpoint ("GET /api/items/7") or method and path, not both.');
  }
  const method = (said?.[1] ?? args.method ?? 'GET').toUpperCase();
  const path = said?.[2] ?? args.path;
  if (path === undefined) throw new ToolError('BAD_ARGS', 'api_call needs endpoint, or path (and method).');
  if (/\{[^}]*\}/.test(path)) {
    throw new ToolError('BAD_ARGS', `${path} still holds a template's {…}.`, {
      next: 'Put the real id in its place: "GET /api/users/42".',
    });
  }
  return { method, path };
}

/** The endpoint the call is to, learned in `frameId` (any frame when undefined), and its absolute URL if known. */
function resolve(
  path: string,
  method: string,
  learned: readonly Endpoint[],
  frameId: string | undefined,
): { url?: string; endpoint?: Endpoint } {
  const candidates = learned.filter((each) => frameId === undefined || each.frameId === frameId);
  for (const each of [...candidates].reverse()) {
    // An absolute path keeps its own origin; a bare one is tried on each endpoint's.
    const url = urlOf(path, each.origin);
    if (endpointFor([each], method, url)) return { url: url.href, endpoint: each };
  }
  return urlOrigin(path) === undefined ? {} : { url: path };
}

async function frameOf(page: PageContext, endpoint: Endpoint | undefined): Promise<Frame> {
  if (endpoint === undefined) return page.frames.mainFrame();
  const frame = (await page.frames.list()).find((each) => each.frameId === endpoint.frameId);
  if (frame) return frame;
  throw new ToolError('FRAME_NOT_FOUND', `The frame that called ${endpoint.method} ${endpoint.template} is gone.`, {
    next: 'Pass `frame`, or use the page so it calls that endpoint again.',
  });
}

/** The frame's newest request to `origin`: a call to an endpoint not yet learned goes with the headers it used. */
function newestTo(page: PageContext, frame: Frame, origin: string): NetworkRecord | undefined {
  return apiRecords(page)
    .filter((record) => record.frameId === frame.frameId && urlOrigin(record.url) === origin)
    .at(-1);
}

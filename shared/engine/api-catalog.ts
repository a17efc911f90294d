// api_learn's reduction, pure: the tab's captured XHR/fetch requests become endpoints (method, path template, query and
// body shape, auth kind, a sample status, the frame that called it). Only names and types are kept, never a value:
// ids in a path become {id}, a query or JSON body becomes its keys and their types, a credential becomes its kind.
import { isSecretName } from '../redact/names.js';
import { contentType } from './gate/paused-body.js';
import { safeDecode } from './gate/risk.js';
import type { NetworkRecord } from './network-log.js';

export interface Endpoint {
  method: string;
  /** Scheme, host and port the endpoint answers on. */
  origin: string;
  /** The path with its ids as {id}: `/api/users/{id}/posts`. */
  template: string;
  /** Query keys and the type of their values, as `key:type`, in first-seen order. */
  query: string[];
  /** The JSON (or form) body's shape, when one of its requests had a body that was read. */
  body?: string;
  /** How the frame signs it: `cookie`, `bearer`, `basic`, `header x-api-key`, several joined by `+`, or `none`. */
  auth: string;
  /** The newest request's status (or failure). */
  status: string;
  /** The frame that called it, and the request the call copies its headers from (the newest). */
  frameId: string | undefined;
  sample: NetworkRecord;
  count: number;
}

const API_TYPES = new Set(['XHR', 'Fetch']);
// A segment that names one thing rather than a kind of thing: a number, a uuid, a long hex or a token-like id
// (Mongo's, Firebase's, a slug ending in digits).
const ID_SEGMENT =
  /^(?:\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{12,}|(?=[^/]*\d)[\w-]{16,}|[\w.-]*\d{3,}[\w.-]*)$/i;
const MAX_KEYS = 30;
const MAX_DEPTH = 4;
// A page names its keys: a name this long is data, not a field, and is cut.
const MAX_KEY_CHARS = 64;

export function isApiRequest(record: NetworkRecord): boolean {
  return API_TYPES.has(record.type);
}

/** `/api/users/42/posts` → `/api/users/{id}/posts`. */
export function pathTemplate(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => (segment !== '' && ID_SEGMENT.test(safeDecode(segment)) ? '{id}' : segment))
    .join('/');
}

/** Endpoints in the order first called; `bodies` holds the request bodies read (by record id), as text. */
export function learnEndpoints(records: readonly NetworkRecord[], bodies: ReadonlyMap<number, string>): Endpoint[] {
  const byKey = new Map<string, Endpoint>();
  for (const record of records) {
    if (!isApiRequest(record)) continue;
    let url: URL;
    try {
      url = new URL(record.url);
    } catch {
      continue;
    }
    const template = pathTemplate(url.pathname);
    const key = `${record.frameId ?? ''} ${record.method} ${url.origin}${template}`;
    const known = byKey.get(key);
    const endpoint: Endpoint = known ?? {
      method: record.method,
      origin: url.origin,
      template,
      query: [],
      auth: 'none',
      status: '',
      frameId: record.frameId,
      sample: record,
      count: 0,
    };
    endpoint.count++;
    endpoint.sample = record;
    endpoint.auth = authKind(record);
    endpoint.status = record.failed ? `failed` : String(record.status ?? 'pending');
    for (const [name, value] of url.searchParams) {
      const typed = `${keyName(name)}:${typeOf(value)}`;
      if (!endpoint.query.some((each) => each.startsWith(`${keyName(name)}:`)) && endpoint.query.length < MAX_KEYS)
        endpoint.query.push(typed);
    }
    const body = bodies.get(record.id);
    if (body !== undefined) endpoint.body = bodyShape(body, contentType(record.requestHeaders));
    byKey.set(key, endpoint);
  }
  return [...byKey.values()];
}

/** Which endpoint a call to `url` with `method` is, when one was learned: same method, origin and template. */
export function endpointFor(endpoints: readonly Endpoint[], method: string, url: URL): Endpoint | undefined {
  const template = pathTemplate(url.pathname);
  const matching = endpoints.filter(
    (each) => each.method === method && each.origin === url.origin && each.template === template,
  );
  return matching.at(-1);
}

/** How a request was signed, by the kind of credential only. */
export function authKind(record: NetworkRecord): string {
  const kinds: string[] = [];
  for (const [name, value] of Object.entries(record.requestHeaders)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') kinds.push((/^(\w+)\s/.exec(value)?.[1] ?? 'authorization').toLowerCase());
    else if (lower !== 'cookie' && isSecretName(name)) kinds.push(`header ${lower}`);
  }
  if ((record.cookies ?? 0) > 0) kinds.unshift('cookie');
  return kinds.length === 0 ? 'none' : kinds.join('+');
}

/** A body's keys and types: JSON as `{name:string, tags:[string]}`, a form as its keys, anything else by its kind. */
export function bodyShape(text: string, contentType: string): string {
  if (/x-www-form-urlencoded/i.test(contentType)) {
    const keys = [...new URLSearchParams(text).keys()].slice(0, MAX_KEYS);
    return `form {${keys.map((key) => `${keyName(key)}:string`).join(', ')}}`;
  }
  try {
    return shapeOf(JSON.parse(text) as unknown, 0);
  } catch {
    return /multipart/i.test(contentType) ? 'multipart' : `text (${text.length} chars)`;
  }
}

function shapeOf(value: unknown, depth: number): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${shapeOf(value[0], depth + 1)}]`;
  if (typeof value !== 'object') return typeof value;
  if (depth >= MAX_DEPTH) return '{…}';
  const entries = Object.entries(value as Record<string, unknown>);
  const shown = entries.slice(0, MAX_KEYS).map(([key, each]) => `${keyName(key)}:${shapeOf(each, depth + 1)}`);
  if (entries.length > MAX_KEYS) shown.push(`…${entries.length - MAX_KEYS} more`);
  return `{${shown.join(', ')}}`;
}

/** A query value's type as the server would likely read it: a number, a boolean, or a string. */
function typeOf(value: string): string {
  if (/^-?\d+(?:\.\d+)?$/.test(value)) return 'number';
  if (/^(?:true|false)$/i.test(value)) return 'boolean';
  return 'string';
}

function keyName(key: string): string {
  return key.length > MAX_KEY_CHARS ? `${key.slice(0, MAX_KEY_CHARS)}…` : key;
}

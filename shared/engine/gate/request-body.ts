// What a paused request would send, read as fields: a form post, a multipart upload, a JSON body (a GraphQL operation's
// kind and name included), or text that is none of these.

export interface SentBody {
  /** Name and value of each field, in order; nested JSON as dotted paths (`message.to`, `items[0].sku`). */
  fields: [string, string][];
  /** Fields past MAX_FIELDS, counted and not listed. */
  more: number;
  /** A body that is not fields (plain text, binary): its text, for the card to clip and redact. */
  text?: string;
  /** A GraphQL request: whether it reads (`query`) or writes (`mutation`), when its text says, and its operation names. */
  graphql?: { kind: 'query' | 'mutation' | 'subscription' | undefined; names: string[] };
}

// A card lists what a person can read; a body with more is counted past this.
const MAX_FIELDS = 40;
const MAX_DEPTH = 6;
// `query Name(…) {`, `mutation Name {`, or `{ … }` (an anonymous query); comments may come first.
const OPERATION = /^\s*(?:#[^\n]*\n\s*)*(?:(query|mutation|subscription)\b\s*([_A-Za-z]\w*)?|\{)/;

export function readBody(contentType: string, text: string | undefined): SentBody {
  if (text === undefined || text === '') return { fields: [], more: 0 };
  const type = contentType.toLowerCase();
  if (type.includes('multipart/form-data')) return multipart(contentType, text);
  const json = type.includes('json') || /^\s*[[{]/.test(text) ? parseJson(text) : undefined;
  if (json !== undefined) return fromJson(json);
  if (
    type.includes('application/x-www-form-urlencoded') ||
    (type === '' && /^[\w.%[\]-]+=[^\s]*(?:&[\w.%[\]-]+=[^\s]*)*$/.test(text))
  ) {
    return capped([...new URLSearchParams(text)]);
  }
  return { fields: [], more: 0, text };
}

function capped(fields: [string, string][]): SentBody {
  return { fields: fields.slice(0, MAX_FIELDS), more: Math.max(0, fields.length - MAX_FIELDS) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function fromJson(json: unknown): SentBody {
  const fields: [string, string][] = [];
  flatten(json, '', fields, 0);
  const operations = (Array.isArray(json) ? json : [json]).filter(isGraphql);
  const body = capped(fields);
  if (operations.length === 0) return body;
  // A batch is as much a write as its most writing operation.
  const kinds = operations.map(
    (operation) =>
      OPERATION.exec(typeof operation.query === 'string' ? operation.query : '')?.[1] ??
      (typeof operation.query === 'string' ? 'query' : undefined),
  );
  const kind = kinds.includes('mutation')
    ? 'mutation'
    : kinds.includes(undefined)
      ? undefined
      : kinds.includes('subscription')
        ? 'subscription'
        : 'query';
  const names = operations.flatMap((operation) => {
    const named = typeof operation.operationName === 'string' ? [operation.operationName] : [];
    const inText = typeof operation.query === 'string' ? OPERATION.exec(operation.query)?.[2] : undefined;
    return inText && !named.includes(inText) ? [...named, inText] : named;
  });
  return { ...body, graphql: { kind: kind as 'query' | 'mutation' | 'subscription' | undefined, names } };
}

/** `{query, variables?, operationName?}`, or a persisted query's `{operationName, extensions}` with no text. */
function isGraphql(value: unknown): value is { query?: unknown; operationName?: unknown } {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record['query'] === 'string'
    ? OPERATION.test(record['query'])
    : typeof record['operationName'] === 'string' && 'extensions' in record;
}

function flatten(value: unknown, path: string, into: [string, string][], depth: number): void {
  if (into.length > MAX_FIELDS) return;
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) {
    into.push([path || '(body)', typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))]);
    return;
  }
  const entries = Array.isArray(value)
    ? value.map((item, index) => [`[${index}]`, item] as const)
    : Object.entries(value).map(([key, item]) => [key, item] as const);
  if (entries.length === 0) into.push([path || '(body)', Array.isArray(value) ? '[]' : '{}']);
  for (const [key, item] of entries)
    flatten(item, key.startsWith('[') || path === '' ? `${path}${key}` : `${path}.${key}`, into, depth + 1);
}

function multipart(contentType: string, text: string): SentBody {
  const boundary = /boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) return { fields: [], more: 0, text };
  const fields: [string, string][] = [];
  for (const part of text.split(`--${marker}`).slice(1)) {
    const end = part.indexOf('\r\n\r\n');
    if (end < 0) continue;
    const head = part.slice(0, end);
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    if (name === undefined) continue;
    const value = part.slice(end + 4).replace(/\r\n$/, '');
    const file = /filename="([^"]*)"/i.exec(head)?.[1];
    fields.push([name, file === undefined ? value : `(file ${file || 'unnamed'}, ${value.length} bytes)`]);
  }
  return capped(fields);
}

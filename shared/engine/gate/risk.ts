// What a request says of itself: whether it writes at all, and whether its method, endpoint or GraphQL operation names a
// send as the person (a message, a post, an order, a payment, a delete). Pure: the DOM's side is page/commit-control.ts.
import type { SentBody } from './request-body.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// Words of an endpoint or an operation name that send something as the person, singular and plural.
const SEND_WORDS = new Set([
  'send',
  'message',
  'messages',
  'mail',
  'email',
  'emails',
  'sms',
  'post',
  'posts',
  'publish',
  'order',
  'orders',
  'checkout',
  'pay',
  'payment',
  'payments',
  'charge',
  'charges',
  'transfer',
  'transfers',
  'delete',
  'remove',
  'purchase',
  'purchases',
  'buy',
  'tweet',
  'tweets',
  'comment',
  'comments',
  'reply',
  'replies',
  'donate',
  'donation',
  'donations',
  'subscribe',
  'share',
]);
// An operation named with no text saying whether it reads (a persisted query) sends only by its verb, or by making one of
// the things above: `SendMessage`, `CreateTweet`; `OrderHistory` and `GetMessages` read.
const SEND_VERBS = new Set([
  'send',
  'post',
  'publish',
  'pay',
  'charge',
  'transfer',
  'delete',
  'remove',
  'purchase',
  'buy',
  'tweet',
  'reply',
  'comment',
  'donate',
  'subscribe',
  'share',
  'checkout',
]);
const MAKING = new Set(['create', 'add', 'new', 'submit', 'place']);

/** A request that changes something: a write method, unless it carries GraphQL that only reads. */
export function isWrite(method: string, body: SentBody): boolean {
  if (!WRITES.has(method.toUpperCase())) return false;
  return body.graphql?.kind !== 'query' && body.graphql?.kind !== 'subscription';
}

/** Why the request itself sends as the person (`DELETE`, `the endpoint names "messages"`), or undefined. */
export function requestSends(method: string, url: string, body: SentBody): string | undefined {
  if (method.toUpperCase() === 'DELETE') return 'it is a DELETE';
  const graphql = body.graphql;
  if (graphql) {
    const name = graphql.names.find((each) =>
      graphql.kind === 'mutation' ? words(each).some((word) => SEND_WORDS.has(word)) : madeToSend(words(each)),
    );
    if (name !== undefined) return `GraphQL ${graphql.kind ?? 'operation'} ${name}`;
  }
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const word = path
    .split('/')
    .flatMap((segment) => words(safeDecode(segment)))
    .find((each) => SEND_WORDS.has(each));
  return word === undefined ? undefined : `the endpoint names "${word}"`;
}

/**
 * Whether two URLs are of one site, roughly: the same host, or hosts under the same last two labels (three under a
 * two-letter country code's short second level, as in example.co.uk). No public suffix list travels with the engine;
 * this only keeps a third party's request (analytics on a click) from counting as the page's own send.
 */
export function roughlySameSite(a: string, b: string): boolean {
  const hostA = hostOf(a);
  const hostB = hostOf(b);
  if (hostA === undefined || hostB === undefined) return false;
  return hostA === hostB || siteKey(hostA) === siteKey(hostB);
}

function madeToSend(split: string[]): boolean {
  return (
    split.some((word) => SEND_VERBS.has(word)) ||
    (MAKING.has(split[0] ?? '') && split.some((word) => SEND_WORDS.has(word)))
  );
}

/** `sendMessage`, `send_message`, `send-message.json`, `SendMessage` → send, message (and json). */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** A path segment decoded, or as it is when a page made it undecodable. */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

function siteKey(host: string): string {
  if (/^[\d.]+$/.test(host) || host.startsWith('[')) return host;
  const labels = host.split('.');
  const short = labels.length >= 3 && labels.at(-1)!.length === 2 && labels.at(-2)!.length <= 3;
  return labels.slice(short ? -3 : -2).join('.');
}

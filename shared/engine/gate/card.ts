// The card a held act shows the person: where, what request, what it would send (secrets masked), and why it was held.
import { mask } from '../../redact/mask.js';
import { isSecretName } from '../../redact/names.js';
import { redactText } from '../../redact/text.js';
import { parsedForShow } from '../egress-report.js';
import type { SentBody } from './request-body.js';

/** What the HELD error carries in `data.held`, and what the core keeps until the person decides. */
export interface HeldCard {
  /** `<tab tag>.h<n>`: unique in the engine session, and recognisably stale in another. */
  id: string;
  /** The site the act was on, as the policy names it. */
  site: string;
  method: string;
  /** Origin and path, query values shown by length only. */
  url: string;
  /** What would be sent: field names and values, secrets masked. */
  summary: string;
  /** The control and the request that made it risky. */
  why: string;
  /** The tool whose act it was. */
  tool: string;
}

/** One held request as the card describes it. */
export interface HeldSend {
  method: string;
  url: string;
  /** A frame's navigation (a form post), not a script's request. */
  document: boolean;
  body: SentBody;
  /** Why it counts as a send: `its name says "Send"`, `the endpoint names "messages"`. */
  reasons: string[];
}

const SUMMARY_CHARS = 600;
const WHY_CHARS = 600;
const VALUE_CHARS = 60;

/**
 * What the held requests would send: `to=alice@example.com, subject=Hi, body="Dear Alice, the report…" (142 chars)`,
 * each request named first when there are several. `secret(name, value)` says which fields (a text body is named '')
 * are masked beyond those named as secrets: the page's own password and card fields, whatever they are called.
 */
export function summarize(sends: readonly HeldSend[], secret: (name: string, value: string) => boolean): string {
  const parts = sends.map((send) => {
    const { fields, more, text } = send.body;
    if (fields.length === 0)
      return text === undefined
        ? '(no body)'
        : `(${text.length} chars of text) ${secret('', text) ? mask(text) : shown(text)}`;
    const listed = fields.map(
      ([name, value]) =>
        `${name}=${value !== '' && (secret(name, value) || isSecretName(lastName(name))) ? mask(value) : shown(value)}`,
    );
    return listed.join(', ') + (more > 0 ? `, and ${more} more field${more === 1 ? '' : 's'}` : '');
  });
  const text =
    sends.length === 1
      ? parts[0]!
      : parts.map((part, index) => `${sends[index]!.method} ${where(sends[index]!.url, '')}: ${part}`).join(' | ');
  return clip(redactText(text), SUMMARY_CHARS);
}

/** `button "Place order" submits a POST to /api/orders (its name says "Place order"; the endpoint names "orders")`. */
export function whyHeld(control: string | undefined, pageUrl: string, sends: readonly HeldSend[]): string {
  const [first, ...others] = sends;
  if (!first) return '';
  const verb = first.document ? 'submits' : 'sends';
  let why = `${control ?? 'the act'} ${verb} a ${first.method} to ${where(first.url, pageUrl)} (${first.reasons.join('; ')})`;
  if (others.length > 0)
    why += `; held with it: ${others.map((send) => `${send.method} ${where(send.url, pageUrl)}`).join(', ')}`;
  return clip(redactText(why), WHY_CHARS);
}

/** The path alone on the page's own origin, else the host too; never the query. */
function where(url: string, pageUrl: string): string {
  const shown = parsedForShow(url);
  if (!shown) return mask(url);
  const { parsed, path } = shown;
  const sameOrigin = (() => {
    try {
      return new URL(pageUrl).origin === parsed.origin;
    } catch {
      return false;
    }
  })();
  return sameOrigin ? path : `${parsed.host}${path}`;
}

/** FNV-1a and length, as page/commit-control.ts takes it of each secret field's value. */
export function fingerprint(value: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) hash = Math.imul(hash ^ value.charCodeAt(i), 0x01000193) >>> 0;
  return `${hash.toString(16)}:${value.length}`;
}

/** `message.to` → `to`, `items[0].password` → `password`: a nested field is a secret by its own name. */
export function lastName(path: string): string {
  return (
    path
      .replace(/\[\d+\]/g, '')
      .split('.')
      .at(-1) ?? path
  );
}

function shown(value: string): string {
  if (value.length > VALUE_CHARS) return `${JSON.stringify(value.slice(0, VALUE_CHARS - 10))}… (${value.length} chars)`;
  return value === '' || /[,=\s"]/.test(value) ? JSON.stringify(value) : value;
}

function clip(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars - 1)}…` : text;
}

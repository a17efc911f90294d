// How the egress hold reads in an eval result: what was held, named by method and URL, with every query value masked.
import { mask } from '../redact/mask.js';
import { redactText } from '../redact/text.js';
import type { Send } from './egress-ledger.js';

export interface EgressSends {
  held: readonly Send[];
}

// A script in a loop can try thousands; the count says so, the list stays short.
const LISTED = 10;
const PATH_CHARS = 120;

/** The lines an eval result ends with; empty when the script sent nothing to another origin. */
export function egressNote({ held }: EgressSends): string {
  if (held.length === 0) return '';
  return (
    `\nHeld, not sent: ${count(held)} to other origins while the script ran: ${listed(held)}. ` +
    'A script reaches only the origins of the tab’s own frames; anything else the tab sends meanwhile is held too, whoever started it.'
  );
}

/** The result data's `held` field, at most LISTED long; none when nothing was held. */
export function egressData({ held }: EgressSends): { held?: string[] } {
  return held.length > 0 ? { held: held.slice(0, LISTED).map(shown) } : {};
}

function count(sends: readonly Send[]): string {
  return sends.length === 1 ? '1 request' : `${sends.length} requests`;
}

function listed(sends: readonly Send[]): string {
  const more = sends.length > LISTED ? `; and ${sends.length - LISTED} more` : '';
  return sends.slice(0, LISTED).map(shown).join('; ') + more;
}

function shown(send: Send): string {
  return `${send.method} ${shownUrl(send.url)}${send.kind === 'WebSocket' ? '' : ` (${send.kind})`}`;
}

/**
 * A URL parsed for showing, with its path clipped so a path built to carry data cannot fill the result; undefined when
 * it does not parse (show it masked then).
 */
export function parsedForShow(url: string): { parsed: URL; path: string } | undefined {
  try {
    const parsed = new URL(url);
    return { parsed, path: parsed.pathname.length > PATH_CHARS ? `${parsed.pathname.slice(0, PATH_CHARS)}…` : parsed.pathname };
  } catch {
    return undefined;
  }
}

/**
 * Origin and path, then each query parameter by name and length: the values are what a script would exfiltrate, and
 * the page's tokens ride there too. A secret in the path is caught by the usual redaction. The gate's held cards show
 * URLs the same way.
 */
export function shownUrl(url: string): string {
  const shown = parsedForShow(url);
  if (!shown) return mask(url);
  const { parsed, path } = shown;
  const query = [...parsed.searchParams].map(([name, value]) => `${name}=${mask(value)}`).join('&');
  const origin = parsed.origin === 'null' ? `${parsed.protocol}//${parsed.host}` : parsed.origin;
  return redactText(`${origin}${path}${query ? `?${query}` : ''}`);
}

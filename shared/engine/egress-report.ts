// How the egress hold reads in an eval result: what was held, named by method and URL, with every query value masked.
import { mask } from '../redact/mask.js';
import { redactText } from '../redact/text.js';
import type { Send } from './egress-ledger.js';

export interface EgressSends {
  held: readonly Send[];
  /** Stopped since the last result, outside any eval: what an earlier script left behind tried to send. */
  late?: readonly Send[];
  /** How many that was (the list keeps the first ones). */
  lateCount?: number;
}

// A script in a loop can try thousands; the count says so, the list stays short.
const LISTED = 10;
const PATH_CHARS = 120;

/** The lines an eval result ends with; empty when no script sent anything to another origin. */
export function egressNote({ held, late = [], lateCount = late.length }: EgressSends): string {
  let note = '';
  if (held.length > 0) {
    note +=
      `\nHeld, not sent: ${count(held.length)} to other origins while the script ran: ${listed(held, held.length)}. ` +
      'A script reaches only the origins of the tab’s own frames; anything else the tab sends meanwhile is held too, whoever started it.';
  }
  if (lateCount > 0) {
    note +=
      `\nHeld, not sent, since the last eval returned: ${count(lateCount)} to other origins that earlier scripts started ` +
      `(a timer, a promise, a handler or a worker they left behind): ${listed(late, lateCount)}. ` +
      'What a script starts stays held for as long as the tab lives.';
  }
  return note;
}

/** The result data's `held` and `heldLater` fields, at most LISTED long; none when nothing was held. */
export function egressData({ held, late = [] }: EgressSends): { held?: string[]; heldLater?: string[] } {
  return {
    ...(held.length > 0 ? { held: held.slice(0, LISTED).map(shown) } : {}),
    ...(late.length > 0 ? { heldLater: late.slice(0, LISTED).map(shown) } : {}),
  };
}

/**
 * The log's line for what the engine failed as it let go of its tabs (executor.ts), masked as a result shows it: no
 * result follows a closing browser to name them in. Undefined when it failed nothing.
 */
export function letGoNote(failed: readonly Send[]): string | undefined {
  if (failed.length === 0) return undefined;
  return `Failed, not sent, as the engine let go of its tabs: ${count(failed.length)} they held paused: ${listed(failed, failed.length)}.`;
}

function count(n: number): string {
  return n === 1 ? '1 request' : `${n} requests`;
}

function listed(sends: readonly Send[], total: number): string {
  const more = total > LISTED ? `; and ${total - LISTED} more` : '';
  return sends.slice(0, LISTED).map(shown).join('; ') + more;
}

function shown(send: Send): string {
  if (send.url === '') return `a request whose address was not told (${send.kind})`;
  if (send.method === undefined) return `${shownUrl(send.url)} (${send.kind}, method not known)`;
  return `${send.method} ${shownUrl(send.url)}${send.kind === 'WebSocket' ? '' : ` (${send.kind})`}`;
}

/**
 * A URL parsed for showing, with its path clipped so a path built to carry data cannot fill the result; undefined when
 * it does not parse (show it masked then).
 */
export function parsedForShow(url: string): { parsed: URL; path: string } | undefined {
  try {
    const parsed = new URL(url);
    return {
      parsed,
      path: parsed.pathname.length > PATH_CHARS ? `${parsed.pathname.slice(0, PATH_CHARS)}…` : parsed.pathname,
    };
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

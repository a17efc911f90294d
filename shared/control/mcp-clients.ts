// The MCP clients connected to the core, as the person's side sees them, and the one cleaning of a client's name: it is
// the client's own words (MCP `initialize`), and reaches the panel, the tray, the activity stream and the logs.
import { z } from 'zod';
import { redactText } from '../redact/text.js';

/** Room for any real client's name ("Claude Desktop", "cursor-vscode"); a longer one is cut, ending in "…". */
export const CLIENT_NAME_MAX = 64;

export const McpClientSchema = z.strictObject({
  /** The session's id on the core: two sessions of one client differ by it. */
  id: z.string(),
  name: z.string().max(CLIENT_NAME_MAX),
  /** When the session opened. */
  since: z.number(),
});
export type McpClient = z.infer<typeof McpClientSchema>;

/** What an activity event of type `client` reports: `connected` once the client has finished `initialize`. */
export const CLIENT_CHANGES = ['connected', 'disconnected'] as const;
export type ClientChange = (typeof CLIENT_CHANGES)[number];

// Line breaks and tabs would start a log line of their own or stretch a tray item; format characters (bidi overrides,
// zero-width ones) would reorder or hide what the person reads, so they go without a trace.
const BREAKS = /[\p{Cc}\p{Zl}\p{Zp}]+/gu;
const FORMAT = /\p{Cf}/gu;

/** A client's name fit to show: one line of printable text, secrets masked, at most CLIENT_NAME_MAX UTF-16 units. */
export function cleanClientName(raw: string | undefined): string {
  const name = redactText((raw ?? '').replace(FORMAT, '').replace(BREAKS, ' '))
    .replace(/\s+/g, ' ')
    .trim();
  return name ? shorten(name, CLIENT_NAME_MAX) : 'unknown client';
}

/** `text` in at most `max` UTF-16 units, ending in "…" when cut; by code point, so an emoji is never split in half. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = '';
  for (const char of text) {
    if (cut.length + char.length >= max) break;
    cut += char;
  }
  return `${cut}…`;
}

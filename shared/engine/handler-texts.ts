// The texts an HTML string can give inline event handlers, and the hash V8 names a compiled handler by: a superset, read
// the way the HTML tokenizer reads attribute values, so no quirk of the string hides a handler from the hold.
import { decodeHTMLAttribute } from 'entities';

// An attribute name starts after whitespace, a `/`, or the quote closing the value before it (no space is needed there),
// and a handler's name is `on` and ASCII letters; its value follows an `=` and optional whitespace.
const HANDLER_ATTRIBUTE = /[\t\n\f\r /"']on[a-z]+[\t\n\f\r ]*=[\t\n\f\r ]*/gi;
// An unquoted value ends at whitespace or the tag's end.
const UNQUOTED_END = /[\t\n\f\r >]/;

/**
 * Every value an event-handler attribute of `html` may hold once parsed, in any context: the tokenizer's input
 * (newlines normalised, NUL replaced) read at each handler name, character references decoded as in an attribute.
 */
export function handlerTextsOfHtml(html: string): string[] {
  const input = html.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD');
  const texts = new Set<string>();
  for (const match of input.matchAll(HANDLER_ATTRIBUTE)) {
    const start = match.index + match[0].length;
    const quote = input[start];
    let raw: string;
    if (quote === '"' || quote === "'") {
      const end = input.indexOf(quote, start + 1);
      raw = input.slice(start + 1, end === -1 ? undefined : end);
    } else {
      const rest = input.slice(start);
      const end = rest.search(UNQUOTED_END);
      raw = end === -1 ? rest : rest.slice(0, end);
    }
    texts.add(decodeHTMLAttribute(raw));
  }
  return [...texts];
}

/** The hex SHA-256 of `text` as UTF-8: what Debugger.scriptParsed names a handler's code by (measured on Chromium 156). */
export async function scriptHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

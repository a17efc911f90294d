// The body of a paused request, as Chrome hands it over (a string, or base64 entries), read as text for the judgement
// and kept as bytes for a form post sent again.
import type { PausedSend } from './tab-gate.js';

export function contentType(headers: Record<string, string>): string {
  const key = Object.keys(headers).find((each) => each.toLowerCase() === 'content-type');
  return key === undefined ? '' : (headers[key] ?? '');
}

/** The body as text: Chrome gives it as a string when it can, else as base64 entries (a multipart upload). */
export function bodyText(request: PausedSend['request']): string | undefined {
  if (request.postData !== undefined) return request.postData;
  const bytes = bodyBytes(request);
  return bytes && new TextDecoder().decode(bytes);
}

/** The body as a resend carries it (base64), and whether it is all there: a file a form uploads comes with no bytes. */
export function resendBody(request: PausedSend['request']): { postData?: string; whole: boolean } {
  const bytes = bodyBytes(request);
  if (bytes === undefined) return { whole: request.hasPostData !== true };
  const whole = request.postDataEntries?.every((entry) => entry.bytes !== undefined) ?? true;
  return { postData: base64Of(bytes), whole };
}

/** Bytes as the in-page resend takes a body (base64). */
export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function bodyBytes(request: PausedSend['request']): Uint8Array | undefined {
  const entries = request.postDataEntries ?? [];
  if (entries.length === 0)
    return request.postData === undefined ? undefined : new TextEncoder().encode(request.postData);
  try {
    return Uint8Array.from(
      entries.flatMap((entry) => Array.from(atob(entry.bytes ?? ''), (char) => char.charCodeAt(0))),
    );
  } catch {
    return undefined;
  }
}

// In-page: a request sent from inside a frame, so the frame's own cookies sign it: a released held send
// (../gate/replay.ts), a replayed captured request or an API call (../ops/network-replay.ts, ../ops/api.ts). Runs in
// our isolated world, whose fetch the page cannot have replaced.

export interface Resent {
  /** The site's answer, when one came. */
  status?: number;
  /** Why the browser did not give an answer (a network failure, or a cross-origin answer it kept from us). */
  error?: string;
  /** Asked for (`maxChars` > 0): the answer's content type, its first chars as text, and how many it had. */
  type?: string;
  body?: string;
  /** Chars of a text answer, bytes of any other (whose body is then not read as text). */
  total?: number;
}

/**
 * `body`: base64 bytes, or null for none; `cookies`: the request may carry the browser's cookies cross-origin too;
 * `maxChars`: how much of the answer to read back (0: none, only its status).
 */
export async function resendRequest(
  method: string,
  url: string,
  headers: [string, string][],
  body: string | null,
  cookies: boolean,
  maxChars = 0,
): Promise<Resent> {
  // A null argument arrives as undefined through chrome.debugger (measured: the extension backend), so neither is a body.
  const bytes = typeof body === 'string' ? Uint8Array.from(atob(body), (char) => char.charCodeAt(0)) : undefined;
  try {
    const response = await fetch(url, {
      method,
      headers,
      body: bytes,
      credentials: cookies ? 'include' : 'same-origin',
      cache: 'no-store',
    });
    if (maxChars <= 0) return { status: response.status };
    const type = response.headers.get('content-type') ?? '';
    // What reads as text; anything else (an image, a zip) is told by its size only.
    if (!/json|text|xml|javascript|x-www-form-urlencoded|graphql/i.test(type))
      return { status: response.status, type, total: (await response.arrayBuffer()).byteLength };
    const text = await response.text();
    return { status: response.status, type, body: text.slice(0, maxChars), total: text.length };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

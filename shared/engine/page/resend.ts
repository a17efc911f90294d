// In-page: a released script request sent again from the frame it was held in, so the frame's own cookies sign it
// (see ../gate/replay.ts). Runs in our isolated world, whose fetch the page cannot have replaced.

export interface Resent {
  /** The site's answer, when one came. */
  status?: number;
  /** Why the browser did not give an answer (a network failure, or a cross-origin answer it kept from us). */
  error?: string;
}

/** `body`: base64 bytes, or null for none; `cookies`: the held request carried a cookie, so this one may too. */
export async function resendRequest(
  method: string,
  url: string,
  headers: [string, string][],
  body: string | null,
  cookies: boolean,
): Promise<Resent> {
  const bytes = body === null ? undefined : Uint8Array.from(atob(body), (char) => char.charCodeAt(0));
  try {
    const response = await fetch(url, {
      method,
      headers,
      body: bytes,
      credentials: cookies ? 'include' : 'same-origin',
      cache: 'no-store',
    });
    return { status: response.status };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

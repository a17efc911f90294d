// How a removed value reads: its length (and kind) stay so the model can still reason about it, the value never does.

export const MASK_FAILED = '[redacted: could not be checked]';

/**
 * A value already masked: by an earlier pass (the extension redacts, then the core again), or by the page engine,
 * which hides password values as `[value hidden]` / `[hidden]`. Left as it is, so redacting twice changes nothing.
 */
export const MASKED = /^\[(?:redacted(?:[ :]|$)|value hidden\]|hidden\])/;

export function mask(value: string, kind?: string): string {
  return `[redacted ${kind ? `${kind} ` : ''}${value.length} chars]`;
}

/** Masks everything but the scheme word of an Authorization value: `Bearer [redacted 212 chars]`. */
export function maskAuthorization(value: string): string {
  const scheme =
    /^((?:bearer|basic|digest|token|negotiate|ntlm|bot|dpop|hoba|mutual|apikey|aws4-hmac-sha256)[ \t]+)(.*)$/is.exec(
      value,
    );
  const [kept, secret] = scheme ? [scheme[1] ?? '', scheme[2] ?? ''] : ['', value];
  return secret === '' || MASKED.test(secret) ? value : kept + mask(secret);
}

// Set-Cookie attributes are not secrets and tell the model what the cookie is for.
const COOKIE_ATTRIBUTES = new Set([
  'path',
  'domain',
  'expires',
  'max-age',
  'samesite',
  'priority',
  'secure',
  'httponly',
  'partitioned',
  'version',
  'comment',
]);

/** Masks every cookie's value in a Cookie / Set-Cookie value, keeping names and attributes: `sid=[redacted 32 chars]; Path=/`. */
export function maskCookies(value: string): string {
  return value.replace(/(^|;[ \t]*)([^=;\s]+)=([^;]*)/g, (whole, separator: string, name: string, cookie: string) => {
    if (COOKIE_ATTRIBUTES.has(name.toLowerCase()) || cookie === '' || MASKED.test(cookie)) return whole;
    return `${separator}${name}=${mask(cookie)}`;
  });
}

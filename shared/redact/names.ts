// Which names mark a secret value: keys, variables, headers, cookies, query parameters and form-field labels.

const compact = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

// The three lists are exported for test/engine/read.test.ts, which holds the page's copy of them (page/text.ts) to these.

/** Names that are a secret on their own (compared without case or separators). */
export const EXACT: ReadonlySet<string> = new Set([
  'auth',
  'sid',
  'pwd',
  'pass',
  'passwd',
  'phpsessid',
  'jsessionid',
  'connectsid',
  'aspnetsessionid',
  'aspxauth',
  'cfduid',
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'otp',
  'totp',
  'mfacode',
]);

/** Endings that make a name a secret: `GITHUB_TOKEN`, `clientSecret`, `db_password`, `data-api-key`, `_myapp_session`. */
export const ENDINGS: readonly string[] = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'secretkey',
  'privatekey',
  'accesskey',
  'signingkey',
  'encryptionkey',
  'masterkey',
  'sessionkey',
  'authkey',
  'session',
  'sessionid',
  'sessid',
  'csrf',
  'xsrf',
];

/** Beginnings that do: `csrfmiddlewaretoken`, `XSRF-TOKEN`, `csrf_param`. */
export const BEGINNINGS: readonly string[] = ['csrf', 'xsrf'];

// Environment-variable style (`STRIPE_KEY`, `SMTP_PASS`): upper case with a secret-sounding last word.
const ENV_SECRET = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:KEY|PASS|PWD|AUTH|CREDENTIALS)$/;

/** Header names whose value is more than one word (a scheme and a token, a list of cookies). */
export type HeaderKind = 'authorization' | 'cookie';

export function headerKind(name: string): HeaderKind | undefined {
  const key = compact(name);
  if (key === 'authorization' || key === 'proxyauthorization') return 'authorization';
  if (key === 'cookie' || key === 'setcookie') return 'cookie';
  return undefined;
}

export function isSecretName(name: string): boolean {
  const key = compact(name);
  if (key === '') return false;
  return (
    EXACT.has(key) ||
    ENDINGS.some((end) => key.endsWith(end)) ||
    BEGINNINGS.some((start) => key.startsWith(start)) ||
    ENV_SECRET.test(name)
  );
}

/** In a URL query or fragment a few more names carry credentials: OAuth codes, signed-URL signatures, `key=`. */
const URL_EXACT = new Set(['code', 'key', 'sig', 'ticket', 'jwt', 'assertion', 'samlresponse', 'samlrequest']);
const URL_ENDINGS = ['signature', 'credential', 'authcode'];

export function isSecretParam(name: string): boolean {
  const key = compact(name);
  return isSecretName(name) || URL_EXACT.has(key) || URL_ENDINGS.some((end) => key.endsWith(end));
}

/** A form field's visible label that says its value is a secret ("API key", "Client secret", "Access token"). */
export function isSecretLabel(label: string): boolean {
  return /\b(?:passwords?|passphrase|secret|tokens?|api[ _-]?key|access[ _-]?key|private[ _-]?key|secret[ _-]?key|pin|otp|one[ -]time (?:code|password))\b/i.test(
    label,
  );
}

/**
 * A form field's label that marks its value secret: one in words ("API key"), or one that is itself a name (`sessionid`,
 * `GITHUB_TOKEN`: an environment editor's rows). Names are judged only for a label of one word: "Current session" is a
 * meeting, `session` a cookie.
 */
export function isSecretFieldLabel(label: string): boolean {
  const trimmed = label.trim();
  return isSecretLabel(trimmed) || (/^\S+$/.test(trimmed) && isSecretName(trimmed));
}

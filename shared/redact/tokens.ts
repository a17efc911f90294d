// Secrets recognisable by their shape alone, wherever they stand: provider API keys, JWTs, private keys, bearer tokens.
import { mask, MASKED } from './mask.js';

interface TokenRule {
  /** Group 1 is the public part that stays (the provider's prefix: the key's "name"), group 2 the secret. */
  pattern: RegExp;
  kind?: string;
  /** Guards shapes that ordinary words could take (`sk-learn-…`): a real key mixes digits and both cases. */
  random?: boolean;
}

// Every pattern is anchored on a literal prefix and uses single character classes, so a scan stays linear.
const RULES: TokenRule[] = [
  { pattern: /\b((?:AKIA|ASIA|ABIA|ACCA))([A-Z0-9]{16})\b/g },
  { pattern: /\b(gh[pousr]_)([A-Za-z0-9]{36,251})\b/g },
  { pattern: /\b(github_pat_)(\w{22,255})\b/g },
  { pattern: /\b(glpat-)([\w-]{20,})/g },
  { pattern: /\b(xox[baprse]-|xapp-)([A-Za-z0-9-]{10,})/g },
  { pattern: /(hooks\.slack\.com\/services\/)([A-Za-z0-9/]{20,})/g },
  { pattern: /\b((?:sk|rk)_(?:live|test)_|whsec_)([A-Za-z0-9]{16,})\b/g },
  { pattern: /\b(sk-(?:ant-(?:api|admin|sid)\d\d-|proj-|svcacct-|admin-|ant-)?)([\w-]{20,})/g, random: true },
  { pattern: /\b(AIza)([\w-]{35})(?![\w-])/g },
  { pattern: /\b(ya29\.)([\w-]{20,})/g },
  { pattern: /\b(GOCSPX-)([\w-]{20,})/g },
  { pattern: /\b(SK)([0-9a-f]{32})\b/g },
  { pattern: /\b(SG\.)([\w-]{16,32}\.[\w-]{16,64})(?![\w-])/g },
  { pattern: /\b(npm_)([A-Za-z0-9]{36})\b/g },
  { pattern: /\b(hf_)([A-Za-z]{34,40})\b/g },
  { pattern: /\b(shp(?:at|ss|ca|pa)_)([a-fA-F0-9]{32})\b/g },
  { pattern: /\b(dop_v1_|doo_v1_)([a-f0-9]{64})\b/g },
  { pattern: /\b(pypi-)(AgE[\w-]{50,})/g },
  // Three base64url segments with a JSON header ({"… = eyJ): a JWT, whoever issued it.
  { pattern: /\b()(eyJ[\w-]{4,}\.[\w-]{2,}\.[\w-]*)/g, kind: 'JWT' },
  // A bearer token anywhere in prose or code; 16+ characters keeps "Bearer tokens" and the like out.
  { pattern: /\b(Bearer[ \t]+)((?!\[redacted)[\w.~+/=-]{16,})/g },
];

const looksRandom = (secret: string) => /\d/.test(secret) && /[a-z]/.test(secret) && /[A-Z]/.test(secret);

// The body stops at the first run of five dashes, so a truncated block (no END line) is masked to where it was cut.
const PRIVATE_KEY = /(-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----)((?:[^-]|-(?!----))+)/g;

export function redactTokens(text: string): string {
  let out = text.replace(PRIVATE_KEY, (whole, head: string, body: string) =>
    MASKED.test(body) ? whole : head + mask(body),
  );
  for (const { pattern, kind, random } of RULES) {
    out = out.replace(pattern, (whole, kept: string, secret: string) =>
      random && !looksRandom(secret) ? whole : kept + mask(secret, kind),
    );
  }
  return out;
}

// Masks one value by the name it was given: an Authorization keeps its scheme, a cookie list its names, the rest goes whole.
import { mask, maskAuthorization, maskCookies, MASKED } from './mask.js';
import { headerKind } from './names.js';

// Flags and placeholders say nothing secret and help the model (`"password": null`, `hasToken=true`).
const NOT_A_SECRET = /^(?:true|false|null|undefined|none|)$/i;

export function maskNamed(name: string, value: string): string {
  if (NOT_A_SECRET.test(value) || MASKED.test(value)) return value;
  const kind = headerKind(name);
  if (kind === 'authorization') return maskAuthorization(value);
  if (kind === 'cookie') return maskCookies(value);
  return mask(value);
}

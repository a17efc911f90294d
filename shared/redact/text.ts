// redactText: every pass over one string; a failure inside masks the whole string rather than let it through.
import { MASK_FAILED } from './mask.js';
import { NAMED_PASSES } from './pairs.js';
import { redactTokens } from './tokens.js';

export function redactText(text: string): string {
  try {
    // Callers are typed, but a page chooses what reaches here: anything that is not a string is checked as its text.
    let out = typeof text === 'string' ? text : String(text);
    for (const pass of NAMED_PASSES) out = pass(out);
    return redactTokens(out);
  } catch {
    return MASK_FAILED;
  }
}

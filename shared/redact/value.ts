// redactValue: structured data (tool results' structuredContent, error data) redacted deep, by key name and by content.
import { MASK_FAILED } from './mask.js';
import { maskNamed } from './named.js';
import { isSecretName } from './names.js';
import { redactText } from './text.js';

// Deeper than any result we build; past it a page is playing games, and the rest is masked, not walked.
const MAX_DEPTH = 64;

function walk(value: unknown, secretName: string | undefined, ancestors: Set<object>, depth: number): unknown {
  if (typeof value === 'string') return secretName ? maskNamed(secretName, value) : redactText(value);
  if (typeof value === 'number' || typeof value === 'bigint')
    return secretName ? maskNamed(secretName, String(value)) : value;
  if (value === null || typeof value !== 'object') return value;
  if (ancestors.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return MASK_FAILED;
  ancestors.add(value);
  try {
    // A secret name covers everything under it: `"set-cookie": ["a=1", "b=2"]`, `"auth": {"token": …}`.
    if (Array.isArray(value)) return value.map((item) => guarded(() => item, secretName, ancestors, depth + 1));
    const out: Record<string, unknown> = {};
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      out[redactText(key)] = guarded(
        () => record[key],
        secretName ?? (isSecretName(key) ? key : undefined),
        ancestors,
        depth + 1,
      );
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}

/** One field, read and checked here: if either fails (a hostile getter, a proxy), that field alone is masked. */
function guarded(read: () => unknown, secretName: string | undefined, ancestors: Set<object>, depth: number): unknown {
  try {
    return walk(read(), secretName, ancestors, depth);
  } catch {
    return MASK_FAILED;
  }
}

export function redactValue<T>(value: T): T {
  // The shape is kept (objects stay objects, arrays arrays); only strings and numbers under secret names change type.
  return guarded(() => value, undefined, new Set(), 0) as T;
}

// A pure function of one string, remembered for its latest inputs: parsing the same few URLs on every call's path
// (a tab's top, its frames) costs a URL parse each time, a lookup once kept.
import { keepNewest } from './keep-newest.js';

// A longer input (a data: URL can be megabytes) is computed each time rather than kept.
const KEPT_INPUT_CHARS = 2_048;

/** `compute`, remembering the results of its `max` latest distinct inputs; it must depend on its input alone. */
export function keptResults<T>(compute: (input: string) => T, max = 256): (input: string) => T {
  const kept = new Map<string, T>();
  return (input) => {
    if (input.length > KEPT_INPUT_CHARS) return compute(input);
    if (kept.has(input)) return kept.get(input) as T;
    const result = compute(input);
    kept.set(input, result);
    keepNewest(kept, max);
    return result;
  };
}

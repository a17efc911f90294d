// A function of ours sent to a page by its source text, runnable whatever compiled it.

/**
 * Source that calls `fn` with `args` (source text). Compilers that keep function names (tsx, esbuild keepNames) wrap
 * inner functions in a `__name` helper that does not travel with fn.toString(): an identity stand-in, bound only inside
 * the call, keeps the shipped code running there and leaves the page's globals as they were.
 */
export function shippedCall(fn: (...args: never[]) => unknown, args: string): string {
  return `((__name) => (${fn.toString()})(${args}))((fn) => fn)`;
}

// Our functions shipped to a page by their source keep running when the compiler wrapped inner functions in `__name`.
import { describe, expect, it } from 'vitest';
import { shippedCall } from '../../shared/engine/shipped-call.js';

describe('shippedCall', () => {
  it('runs a function whose source calls the `__name` helper tsx adds, and defines no global', () => {
    // What tsx makes of `(x) => { const inner = () => x * 2; return inner(); }`.
    const compiled = new Function('x', 'const inner = __name(() => x * 2, "inner"); return inner();') as (
      x: number,
    ) => number;
    expect(() => compiled(1)).toThrow(/__name/);
    expect(new Function(`return ${shippedCall(compiled, '21')}`)()).toBe(42);
    expect('__name' in globalThis).toBe(false);
  });
});

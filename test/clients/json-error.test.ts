// Locating a JSON syntax error: the first rejected character, also where V8 names no position, and never a cut-off end.
import { describe, expect, it } from 'vitest';
import { describeJsonError, jsonErrorOffset } from '../../electron/core/clients/json-error.js';

function describeOf(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return describeJsonError(text, error);
  }
  throw new Error('parsed');
}

describe('JSON error position', () => {
  it('points at the first character JSON.parse rejects', () => {
    expect(jsonErrorOffset('{"a":tx}')).toBe(6);
    expect(jsonErrorOffset('{"a":1,}')).toBe(7);
    expect(jsonErrorOffset('{"a":1}}')).toBe(7);
    expect(jsonErrorOffset('{"a":1.x}')).toBe(7);
    expect(jsonErrorOffset('{"a":"x\ny"}')).toBe(7);
    expect(jsonErrorOffset('{"a": undefined}')).toBe(6);
  });

  it('finds no fault in any prefix of valid JSON: a text cut short is reported at its end', () => {
    const valid = JSON.stringify(
      { a: [1, -2.5e3, true, false, null], 'b\\"': { c: 'd\u00e9\\n', e: {} }, f: '' },
      null,
      2,
    );
    for (let length = 0; length <= valid.length; length += 1)
      expect(jsonErrorOffset(valid.slice(0, length))).toBe(length);
  });

  it("says the reason and line and column, without V8's excerpt of the text", () => {
    expect(describeOf('{"a":tx}')).toBe("Unexpected token 'x' at line 1, column 7");
    expect(describeOf('{"a":\n  ,}')).toBe("Unexpected token ',' at line 2, column 3");
    expect(describeOf('{\r\n"a" 1}')).toBe("Expected ':' after property name at line 2, column 5");
    expect(describeOf('{"token": "abc", "x": nope}')).not.toContain('abc');
  });
});

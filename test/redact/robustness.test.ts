// Never throws and stays linear (its cost is a figure of `npm run bench`): fuzzed and hostile input, huge strings, deep and cyclic data, a 25 KB snapshot.
import { describe, expect, it } from 'vitest';
import { MASK_FAILED } from '../../shared/redact/mask.js';
import { redactText } from '../../shared/redact/text.js';
import { redactValue } from '../../shared/redact/value.js';
import { chars, SHAPED, snapshot25k } from './samples.js';

// Characters the patterns care about, weighted so fuzzed text is full of near-misses.
const FUZZ = 'aZ09_-.:=;&?#%"\'<>[]{}()\\/ \n\t@+eyJ-----BEGIN sk-ghp_AKIA Bearer Cookie: token=';

/** The fastest of three runs: a busy machine only ever adds time, and one pause would decide a single run. */
function timed(run: () => void): number {
  let best = Infinity;
  for (let round = 0; round < 3; round += 1) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

describe('never throws', () => {
  it('on 3,000 fuzzed strings, and a second pass changes nothing', () => {
    for (let i = 0; i < 3_000; i += 1) {
      const text = chars(FUZZ, 1 + (i % 400));
      const out = redactText(text);
      expect(typeof out).toBe('string');
      expect(redactText(out)).toBe(out);
    }
  });

  it('masks the whole field when checking it fails', () => {
    const hostile = {
      toString: () => {
        throw new Error('no');
      },
    };
    expect(redactText(hostile as unknown as string)).toBe(MASK_FAILED);
    const data = {
      fine: 'ok',
      get bad(): string {
        throw new Error('getter');
      },
    };
    expect(redactValue(data)).toEqual({ fine: 'ok', bad: MASK_FAILED });
    const proxy = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('keys');
        },
      },
    );
    expect(redactValue({ inner: proxy })).toEqual({ inner: MASK_FAILED });
  });

  it('walks cycles and shared objects, and stops deep nesting with a mask instead of the stack', () => {
    const shared = { note: 'same' };
    const cyclic: Record<string, unknown> = { a: shared, b: shared, password: 'hunter2' };
    cyclic['self'] = cyclic;
    expect(redactValue(cyclic)).toEqual({
      a: { note: 'same' },
      b: { note: 'same' },
      password: '[redacted 7 chars]',
      self: '[Circular]',
    });
    let deep: Record<string, unknown> = { token: 'x'.repeat(20) };
    for (let i = 0; i < 100_000; i += 1) deep = { next: deep };
    expect(JSON.stringify(redactValue(deep))).toContain(MASK_FAILED);
    expect(JSON.stringify(redactValue(deep))).not.toContain('x'.repeat(20));
  });

  it('keeps non-text values as they are: booleans, null, undefined, and numbers not named as secrets', () => {
    expect(redactValue({ a: true, b: null, c: undefined, d: 3.5, e: [1, 'two'] })).toEqual({
      a: true,
      b: null,
      c: undefined,
      d: 3.5,
      e: [1, 'two'],
    });
  });
});

describe('stays linear on hostile input', () => {
  const shapes: [string, (n: number) => string][] = [
    ['unclosed tags', (n) => '<a name="csrf" value'.repeat(n / 20)],
    ['chained assignments', (n) => 'token='.repeat(n / 6)],
    ['unterminated quotes', (n) => '"password": "'.repeat(n / 13)],
    ['PEM headers without a body end', (n) => '-----BEGIN PRIVATE KEY-----'.repeat(n / 27)],
    ['JWT-like runs', (n) => 'eyJ'.repeat(n / 3)],
    ['URL credentials without a host', (n) => 'https://u:'.repeat(n / 10)],
    ['query separators', (n) => '?token=&'.repeat(n / 8)],
    ['a wall of word characters', (n) => 'a'.repeat(n)],
    ['escaped quotes', (n) => '\\"a\\":\\"'.repeat(n / 9)],
    ["pairs inside pairs' values", (n) => 'a=b:'.repeat(n / 4)],
    ['snapshot lines of one long line', (n) => '- listitem: '.repeat(n / 12)],
    ['a header name chained', (n) => 'Cookie:'.repeat(n / 7)],
    ['entity quotes never closed', (n) => 'token:&quot;x&#34;'.repeat(n / 18)],
  ];

  it.each(shapes)('%s: 4x the input costs well under 16x the time', (_label, make) => {
    const small = make(100_000);
    const large = make(400_000);
    redactText(small);
    // The fastest of five runs each, taken in turns: a busy machine slows some runs, never all of them, and a burst
    // of load then falls on both sizes rather than on one.
    let smallMs = Infinity;
    let largeMs = Infinity;
    for (let run = 0; run < 5; run++) {
      smallMs = Math.min(
        smallMs,
        timed(() => redactText(small)),
      );
      largeMs = Math.min(
        largeMs,
        timed(() => redactText(large)),
      );
    }
    smallMs = Math.max(smallMs, 1);
    expect(largeMs, `${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms`).toBeLessThan(smallMs * 10 + 100);
    // A backtracking pattern takes minutes on 400 KB; this is that bound, with room for a busy machine.
    expect(largeMs).toBeLessThan(10_000);
  });

  it('a 5 MB string redacts without throwing', () => {
    const text = `${'Lorem ipsum dolor sit amet, price $12.00. '.repeat(120_000)}token=${'z'.repeat(40)}`;
    const out = redactText(text);
    expect(out.endsWith('token=[redacted 40 chars]')).toBe(true);
  });
});

describe('a snapshot-sized page', () => {
  // Its cost (median of 50) is a figure of `npm run bench`: a busy machine would fail a bound on it.
  it('redacts the secrets among ordinary controls of a 25 KB snapshot and leaves the rest', () => {
    const text = snapshot25k();
    expect(text.length).toBe(25_000);
    const out = redactText(text);
    for (const { token } of SHAPED) if (text.includes(token)) expect(out).not.toContain(token);
    expect(out).toContain('link "Customer 1"');
    expect(out).toContain('user1@example.com');
  });
});

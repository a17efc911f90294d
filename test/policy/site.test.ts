// The site a URL is judged by, as siteOf keeps it for the next call that asks: the same answer, never another caller's.
import { describe, expect, it } from 'vitest';
import { siteOf } from '../../shared/policy/site.js';

describe('siteOf kept between calls', () => {
  it('answers a URL asked again as it did, and no caller can change what the next one reads', () => {
    const first = siteOf('https://Bank.example.:8443/login');
    expect(first).toEqual({ kind: 'web', scheme: 'https', host: 'bank.example', port: 8443 });
    expect(() => Object.assign(first, { host: 'evil.example' })).toThrow(TypeError);
    for (let index = 0; index < 40; index++) siteOf(`https://site${index}.example/`);
    expect(siteOf('https://Bank.example.:8443/login')).toEqual(first);
  });

  it('parses a long URL each time, with the same answer as a short one', () => {
    const long = `https://app.example/?q=${'x'.repeat(5000)}`;
    expect(siteOf(long)).toEqual({ kind: 'web', scheme: 'https', host: 'app.example', port: 443 });
    expect(siteOf(`data:text/html,${'y'.repeat(5000)}`)).toEqual({ kind: 'unsupported', scheme: 'data' });
  });
});

// Site patterns: what each spelling means, and the mistakes a rule is refused for.
import { describe, expect, it } from 'vitest';
import { parseSitePattern, patternText } from '../../shared/policy/pattern.js';

describe('parseSitePattern', () => {
  it.each([
    ['example.com', { kind: 'domain', host: 'example.com' }, 'example.com'],
    ['  Example.COM.  ', { kind: 'domain', host: 'example.com' }, 'example.com'],
    ['bücher.de', { kind: 'domain', host: 'xn--bcher-kva.de' }, 'xn--bcher-kva.de'],
    ['*.example.com', { kind: 'subdomains', host: 'example.com' }, '*.example.com'],
    ['localhost:3000', { kind: 'host-port', host: 'localhost', port: 3000 }, 'localhost:3000'],
    ['example.com:80', { kind: 'host-port', host: 'example.com', port: 80 }, 'example.com:80'],
    ['10.0.0.1', { kind: 'domain', host: '10.0.0.1' }, '10.0.0.1'],
    ['::1', { kind: 'domain', host: '[::1]' }, '[::1]'],
    ['[::1]:8080', { kind: 'host-port', host: '[::1]', port: 8080 }, '[::1]:8080'],
    [
      'http://localhost:3000',
      { kind: 'origin', scheme: 'http', host: 'localhost', port: 3000 },
      'http://localhost:3000',
    ],
    [
      'HTTPS://Example.com:443/',
      { kind: 'origin', scheme: 'https', host: 'example.com', port: 443 },
      'https://example.com',
    ],
    ['file://', { kind: 'file' }, 'file://'],
  ])('%s', (text, pattern, canonical) => {
    expect(parseSitePattern(text)).toEqual(pattern);
    expect(patternText(parseSitePattern(text))).toBe(canonical);
  });

  it.each([
    ['', /needs a site/],
    ['*', /cannot cover every site/],
    ['example.com/login', /not a page/],
    ['example.com?x=1', /not a page/],
    ['example.com#top', /not a page/],
    ['https://example.com/login', /not a page/],
    ['user@example.com', /user@/],
    ['https://bank.com@evil.com', /user@/],
    ['evil.com\\bank.com', /backslashes/],
    ['exa mple.com', /spaces/],
    ['*.*.example.com', /leading/],
    ['ex*ample.com', /leading/],
    ['https://*.example.com', /exact/],
    ['*.10.0.0.1', /no subdomains/],
    ['*.example.com:8080', /cannot name a port/],
    ['chrome://settings', /never readable/],
    ['ftp://example.com', /never readable/],
    ['file:///home/me', /just "file:\/\/"/],
    ['example.com:99999', /not a host name/],
    ['[::1', /not a host name/],
  ])('refuses %j', (text, why) => {
    expect(() => parseSitePattern(text)).toThrow(why);
  });
});

// Patterns too broad to allow anything: public suffixes (from the Public Suffix List), and local names and IP
// addresses without their port, refused wherever a grant can come from; a block may still name them.
import { describe, expect, it } from 'vitest';
import { grantProblem } from '../../shared/policy/breadth.js';
import { parsePolicyFile } from '../../shared/policy/file.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { parseSitePattern } from '../../shared/policy/pattern.js';
import { rulesFromText } from '../../shared/policy/transfer.js';

const TOO_BROAD: readonly [site: string, why: RegExp][] = [
  ['com', /com is a public suffix/],
  ['co.uk', /co\.uk is a public suffix/],
  ['github.io', /github\.io is a public suffix/],
  ['*.github.io', /github\.io is a public suffix/],
  ['*.co.uk', /public suffix/],
  ['https://github.io', /public suffix/],
  ['com:8080', /public suffix/],
  ['s3.amazonaws.com', /public suffix/],
  ['localhost', /"localhost": a local host name needs its port.*Jupyter/],
  ['LOCALHOST.', /"localhost": a local host name needs its port/],
  ['app.localhost', /needs its port/],
  ['*.localhost', /every host under localhost/],
  ['intranet', /needs its port/],
  ['127.0.0.1', /"127\.0\.0\.1": an IP address needs its port/],
  ['2130706433', /"127\.0\.0\.1": an IP address needs its port/],
  ['::1', /"\[::1\]": an IP address needs its port/],
  ['10.0.0.1', /an IP address needs its port/],
];

const FINE = [
  'localhost:8888',
  'http://localhost',
  'https://localhost:8443',
  'app.localhost:3000',
  'intranet:8080',
  '127.0.0.1:8080',
  'http://127.0.0.1:5173',
  '[::1]:8080',
  'http://[::1]',
  'example.com',
  '*.example.com',
  'example.co.uk',
  'evil.github.io',
  'mabanque.bnpparibas',
  'file://',
  'example.com:8443',
];

describe('grantProblem', () => {
  it.each(TOO_BROAD)('refuses %j at every allowing level', (site, why) => {
    for (const level of ['read', 'act', 'trusted'] as const)
      expect(grantProblem(parseSitePattern(site), level)).toMatch(why);
  });

  it.each(FINE)('allows %j', (site) => {
    expect(grantProblem(parseSitePattern(site), 'trusted')).toBeUndefined();
  });

  it('lets a block name anything it can parse: refusing a whole suffix or every local port is the safe side', () => {
    for (const [site] of TOO_BROAD) expect(grantProblem(parseSitePattern(site), 'blocked')).toBeUndefined();
  });
});

describe('every way a grant arrives refuses a too-broad one, naming it', () => {
  it('the policy file: it does not load, and says which rule to fix', () => {
    const file = JSON.stringify({
      version: 1,
      rules: [
        { site: 'example.com', level: 'act' },
        { site: 'localhost', level: 'trusted' },
        { site: 'co.uk', level: 'read' },
        { site: 'com', level: 'blocked' },
      ],
    });
    expect(() => parsePolicyFile(file)).toThrow(
      /2 problems:\n {2}- rules\[1\]\.site: "localhost": a local host name needs its port[^\n]*\n {2}- rules\[2\]\.site: "co\.uk": co\.uk is a public suffix/,
    );
  });

  it('the editor (the control API and the wire to the extension parse rules this way)', () => {
    expect(() =>
      rulesFromText([
        { site: 'github.io', level: 'act' },
        { site: 'localhost:3000', level: 'act' },
      ]),
    ).toThrow(/^rules\[0\]: "github\.io": github\.io is a public suffix/);
  });

  it('--allow and --trust', () => {
    expect(() => policyFromFlags({ allow: ['localhost:3000,com'], trust: ['127.0.0.1'] })).toThrow(
      /--allow: "com": com is a public suffix[\s\S]*--trust: "127\.0\.0\.1": an IP address needs its port/,
    );
  });
});

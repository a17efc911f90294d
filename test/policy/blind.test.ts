// The built-in blind list: no rule, grant or default reaches it, and the docs list every entry.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BLIND_SITES } from '../../shared/policy/blind.js';
import { evaluatePolicy } from '../../shared/policy/evaluate.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { parseSitePattern } from '../../shared/policy/pattern.js';
import { outcome, policy } from './support.js';

const EVERY_SITE = Object.values(BLIND_SITES).flat();

const BROWSER_PAGES = [
  'chrome://settings/',
  'chrome://extensions/',
  'CHROME://flags',
  'chrome-extension://abcdefghijklmnopabcdefghijklmnop/options.html',
  'chrome-untrusted://print/',
  'chrome-search://local-ntp/',
  'devtools://devtools/bundled/inspector.html',
  'edge://settings',
  'brave://wallet',
  'opera://settings',
  'vivaldi://settings',
  'about:settings',
  'about:version',
  'view-source:https://example.com/',
  'chrome-error://chromewebdata/',
];

const STORES = [
  'https://chromewebstore.google.com/detail/x/abc',
  'https://chrome.google.com/webstore/detail/abc',
  'https://microsoftedge.microsoft.com/addons/',
];

describe('blind list', () => {
  it.each(EVERY_SITE)('%s is blind at every level, even with a trusted rule, a grant and --trust for it', (site) => {
    const url = `https://${site}/`;
    const everything = policyFromFlags(
      { allow: [site], trust: [site] },
      policy(
        [
          [site, 'trusted'],
          [`https://${site}`, 'trusted'],
        ],
        { grants: [[site, 'trusted']] },
      ),
    );
    for (const need of ['read', 'act', 'trusted'] as const)
      expect(outcome(evaluatePolicy(url, need, everything))).toBe('blind');
    expect(outcome(evaluatePolicy(`https://secure.${site}./login`, 'read', everything))).toBe('blind');
  });

  it.each([...BROWSER_PAGES, ...STORES])('%s is blind', (url) => {
    const everything = policy([
      ['google.com', 'trusted'],
      ['microsoft.com', 'trusted'],
      ['example.com', 'trusted'],
    ]);
    expect(outcome(evaluatePolicy(url, 'read', everything))).toBe('blind');
  });

  it('covers the representative groups the docs promise', () => {
    const policyFor = policy([]);
    const blind = (url: string) => evaluatePolicy(url, 'read', policyFor);
    expect(blind('https://secure.chase.com/web/auth')).toMatchObject({
      reason: 'blind',
      message: expect.stringContaining('a bank'),
    });
    expect(blind('https://www.paypal.com/myaccount')).toMatchObject({
      reason: 'blind',
      message: expect.stringContaining('a payment service'),
    });
    expect(blind('https://my.1password.com/vaults')).toMatchObject({
      reason: 'blind',
      message: expect.stringContaining('password manager'),
    });
    expect(blind('https://chrome.google.com/webstore')).toMatchObject({
      reason: 'blind',
      message: expect.stringContaining('extension store'),
    });
    // Only Stripe's dashboards and payment pages: its docs stay readable.
    expect(outcome(evaluatePolicy('https://docs.stripe.com/api', 'read', policy([['stripe.com', 'read']])))).toBe(
      'read',
    );
    expect(
      outcome(evaluatePolicy('https://vault.bitwarden.com/#/vault', 'read', policy([['bitwarden.com', 'read']]))),
    ).toBe('blind');
    expect(outcome(evaluatePolicy('https://bitwarden.com/help/', 'read', policy([['bitwarden.com', 'read']])))).toBe(
      'read',
    );
  });

  it("blinds chrome-mcp's own UI origins the core adds, and only those exact origins", () => {
    const own = policy(
      [
        ['127.0.0.1:5173', 'trusted'],
        ['127.0.0.1:38018', 'trusted'],
      ],
      { self: [parseSitePattern('http://127.0.0.1:38018')] },
    );
    expect(evaluatePolicy('http://127.0.0.1:38018/panel', 'read', own)).toMatchObject({
      reason: 'blind',
      message: expect.stringContaining("chrome-mcp's own page"),
    });
    expect(outcome(evaluatePolicy('http://127.0.0.1:5173/', 'trusted', own))).toBe('trusted');
  });

  it('docs/policy.md lists every entry', () => {
    const docs = readFileSync(new URL('../../docs/policy.md', import.meta.url), 'utf8');
    const missing = EVERY_SITE.filter((site) => !docs.includes(`\`${site}\``));
    expect(missing).toEqual([]);
  });
});

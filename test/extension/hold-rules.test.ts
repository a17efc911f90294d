// The hold's rules mirror the policy: each pattern's regex matches exactly the URLs whose site the pattern covers,
// and priorities keep the policy's precedence (most specific wins, blocked beats allow at a tie, the blind list wins).
import { describe, expect, it } from 'vitest';
import {
  holdRules,
  isPopupHoldRule,
  patternRegex,
  popupHoldRules,
  scriptHoldRules,
} from '../../extension/src/hold-rules.js';
import { parseSitePattern, patternMatches } from '../../shared/policy/pattern.js';
import { DEFAULT_POLICY, type Policy } from '../../shared/policy/policy.js';
import { siteOf } from '../../shared/policy/site.js';

// As Chrome canonicalises them (default ports dropped, a path always present), which is what DNR matches.
const URLS = [
  'http://example.com/',
  'https://example.com/a?b#c',
  'http://example.com:8080/',
  'https://www.example.com/',
  'http://a.b.example.com:3000/x',
  'http://evilexample.com/',
  'http://example.com.evil.net/',
  'http://user:pw@example.com/',
  'http://example.com@evil.net/',
  'http://evil.net/?example.com/',
  'http://localhost:3000/',
  'https://localhost:3000/',
  'http://localhost/',
  'https://localhost/',
  'http://localhost:80/',
  'https://localhost:80/',
  'http://sub.localhost:3000/',
  'http://127.0.0.2:4000/',
  'http://127.0.0.20:4000/',
  'http://x.127.0.0.2:4000/',
  'http://[::1]:5000/',
  'https://[::1]/',
];

const PATTERNS = [
  'example.com',
  '*.example.com',
  'localhost:3000',
  'localhost:80',
  'localhost:443',
  'http://localhost:3000',
  'https://localhost',
  '127.0.0.2',
  '127.0.0.2:4000',
  '[::1]',
  'https://[::1]',
];

describe('patternRegex', () => {
  it.each(PATTERNS)('%s matches exactly the URLs the pattern covers', (text) => {
    const pattern = parseSitePattern(text);
    const regex = new RegExp(patternRegex(pattern)!);
    const canonical = (url: string) =>
      url.replace(/^http:\/\/([^/]*):80\//, 'http://$1/').replace(/^https:\/\/([^/]*):443\//, 'https://$1/');
    for (const url of URLS.map(canonical)) expect(regex.test(url), url).toBe(patternMatches(pattern, siteOf(url)));
  });
});

describe('holdRules', () => {
  const scope = { excludedTabIds: [1, 2], initiatorDomains: ['127.0.0.1'] };
  const rule = (site: string, level: 'blocked' | 'read' | 'act' | 'trusted') => ({
    site: parseSitePattern(site),
    level,
  });

  /** The action of the highest-priority rule that matches `url` (allow wins ties, as in DNR). */
  function outcome(policy: Policy, url: string): string {
    const host = new URL(url).hostname;
    const matching = holdRules(policy, scope).filter(
      ({ condition }) =>
        (condition.regexFilter === undefined || new RegExp(condition.regexFilter).test(url)) &&
        (condition.requestDomains === undefined ||
          condition.requestDomains.some((domain) => host === domain || host.endsWith(`.${domain}`))),
    );
    const top = Math.max(...matching.map((candidate) => candidate.priority));
    const winners = matching
      .filter((candidate) => candidate.priority === top)
      .map((candidate) => candidate.action.type);
    return winners.includes('allow') ? 'allow' : 'block';
  }

  it('allows a new window only where the policy lets the agent read', () => {
    const policy: Policy = {
      ...DEFAULT_POLICY,
      rules: [
        rule('*.example.com', 'read'),
        rule('bank.example.com', 'blocked'),
        rule('shop.example.com', 'act'),
        rule('pay.shop.example.com', 'blocked'),
      ],
      grants: [rule('*.google.com', 'trusted'), rule('news.org', 'blocked')],
    };
    const cases: Record<string, string> = {
      'https://www.example.com/': 'allow',
      'https://example.com/': 'block',
      'https://bank.example.com/': 'block',
      'https://login.bank.example.com/': 'block',
      'https://shop.example.com/': 'allow',
      'https://pay.shop.example.com/': 'block',
      'https://maps.google.com/': 'allow',
      // On the built-in blind list, whatever the grant says.
      'https://passwords.google.com/': 'block',
      'https://news.org/': 'block',
      'https://elsewhere.net/': 'block',
    };
    const seen = Object.fromEntries(Object.keys(cases).map((url) => [url, outcome(policy, url)]));
    expect(seen).toEqual(cases);
  });

  it('holds only new tabs opened from the driven sites, and only their top page', () => {
    for (const { condition } of holdRules(DEFAULT_POLICY, scope)) {
      expect(condition).toMatchObject({
        resourceTypes: ['main_frame'],
        excludedTabIds: [1, 2],
        initiatorDomains: ['127.0.0.1'],
      });
    }
  });
});

describe('popupHoldRules', () => {
  type Rule = {
    priority: number;
    action: { type: string };
    condition: { tabIds: number[]; resourceTypes?: string[]; excludedResourceTypes?: string[]; regexFilter?: string };
  };
  const rules = popupHoldRules([7, 9], ['http://127.0.0.1:3000']) as Rule[];

  /** The action of the highest-priority rule matching `url` as a page or as a send (allow wins ties, as in DNR). */
  function outcome(url: string, page: boolean): string {
    const matching = rules.filter(
      ({ condition }) =>
        (page ? condition.resourceTypes !== undefined : condition.excludedResourceTypes !== undefined) &&
        (condition.regexFilter === undefined || new RegExp(condition.regexFilter).test(url)),
    );
    const top = Math.max(...matching.map((candidate) => candidate.priority));
    const winners = matching
      .filter((candidate) => candidate.priority === top)
      .map((candidate) => candidate.action.type);
    return winners.includes('allow') ? 'allow' : 'block';
  }

  it('holds only the windows named, their pages and their sends, to their opener’s origins', () => {
    for (const { condition } of rules) expect(condition.tabIds).toEqual([7, 9]);
    for (const page of [true, false]) {
      expect(outcome('http://127.0.0.1:3000/a', page)).toBe('allow');
      expect(outcome('http://127.0.0.1:3001/a', page)).toBe('block');
      expect(outcome('http://127.0.0.2:3000/a', page)).toBe('block');
    }
  });

  it('is told from every other hold’s rules, which a restarted worker must not take as its own', () => {
    expect(rules.every(isPopupHoldRule)).toBe(true);
    const scope = { excludedTabIds: [1], initiatorDomains: ['127.0.0.1'] };
    const others = [...holdRules(DEFAULT_POLICY, scope), ...scriptHoldRules(scope, ['http://127.0.0.1:3000'])];
    expect(others.filter(isPopupHoldRule)).toEqual([]);
  });
});

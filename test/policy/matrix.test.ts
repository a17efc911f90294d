// The policy matrix: pattern × URL × needed level → decision, covering every URL trick the parser must see through.
import { describe, expect, it } from 'vitest';
import { evaluatePolicy } from '../../shared/policy/evaluate.js';
import type { PolicyLevel } from '../../shared/policy/levels.js';
import { outcome, policy, type RuleSpec } from './support.js';

type Row = readonly [rule: RuleSpec | null, url: string, need: PolicyLevel, expected: string];

const ROWS: readonly Row[] = [
  // A bare domain covers itself and every subdomain at any depth, and nothing that merely ends in the same letters.
  [['example.com', 'act'], 'https://example.com/', 'act', 'act'],
  [['example.com', 'act'], 'https://a.b.c.example.com/x?y#z', 'act', 'act'],
  [['example.com', 'act'], 'https://evilexample.com/', 'read', 'ask'],
  [['example.com', 'act'], 'https://example.com.evil.net/', 'read', 'ask'],
  [['example.com', 'act'], 'https://example.co/', 'read', 'ask'],
  [['example.com', 'act'], 'http://example.com:8080/', 'act', 'act'],
  [['example.com', 'read'], 'https://example.com/', 'read', 'read'],
  [['example.com', 'read'], 'https://example.com/', 'act', 'below'],
  [['example.com', 'act'], 'https://example.com/', 'trusted', 'below'],
  [['example.com', 'trusted'], 'https://example.com/', 'trusted', 'trusted'],
  [['example.com', 'trusted'], 'https://example.com/', 'read', 'trusted'],
  [['example.com', 'blocked'], 'https://example.com/', 'read', 'blocked'],
  [['example.com', 'blocked'], 'https://www.example.com/', 'read', 'blocked'],
  // Whatever the site, a call that touches no page is not the policy's business.
  [['example.com', 'blocked'], 'https://example.com/', 'none', 'none'],
  [null, 'https://chase.com/', 'none', 'none'],
  [null, 'not a url', 'none', 'none'],
  // *.domain: subdomains only.
  [['*.example.com', 'act'], 'https://example.com/', 'read', 'ask'],
  [['*.example.com', 'act'], 'https://app.example.com/', 'act', 'act'],
  [['*.example.com', 'act'], 'https://x.y.example.com/', 'act', 'act'],
  [['*.example.com', 'act'], 'https://notexample.com/', 'read', 'ask'],
  // host:port is that host on that port, either scheme, no subdomains.
  [['localhost:3000', 'act'], 'http://localhost:3000/', 'act', 'act'],
  [['localhost:3000', 'act'], 'https://localhost:3000/', 'act', 'act'],
  [['localhost:3000', 'act'], 'http://localhost:3001/', 'read', 'ask'],
  [['localhost:3000', 'act'], 'http://localhost/', 'read', 'ask'],
  [['localhost:3000', 'act'], 'http://a.localhost:3000/', 'read', 'ask'],
  [['example.com:443', 'act'], 'https://example.com/', 'act', 'act'],
  [['example.com:80', 'act'], 'http://example.com/', 'act', 'act'],
  [['example.com:80', 'act'], 'https://example.com/', 'read', 'ask'],
  // Origins: scheme, host and port all count; the default port may be written or not.
  [['http://localhost:3000', 'act'], 'http://localhost:3000/app', 'act', 'act'],
  [['http://localhost:3000', 'act'], 'https://localhost:3000/app', 'read', 'ask'],
  [['http://localhost:3000', 'act'], 'http://localhost:3001/', 'read', 'ask'],
  [['https://example.com', 'act'], 'https://example.com:443/', 'act', 'act'],
  [['https://example.com:443', 'act'], 'https://example.com/', 'act', 'act'],
  [['https://example.com', 'act'], 'http://example.com/', 'read', 'ask'],
  [['https://example.com', 'act'], 'https://www.example.com/', 'read', 'ask'],
  // IP literals: v4 in any spelling the URL parser accepts, v6 compressed or not; an IP rule never covers "subdomains".
  // An IP or a local name is granted with its port (breadth.ts), so each spelling is checked against one.
  [['127.0.0.1:5173', 'act'], 'http://127.0.0.1:5173/', 'act', 'act'],
  [['127.0.0.1:80', 'act'], 'http://2130706433/', 'act', 'act'],
  [['127.0.0.1:80', 'act'], 'http://0x7f.1/', 'act', 'act'],
  [['127.0.0.1:80', 'act'], 'http://127.1/', 'act', 'act'],
  [['127.0.0.1:80', 'act'], 'http://127.0.0.2/', 'read', 'ask'],
  [['127.0.0.1:80', 'act'], 'http://127.0.0.1:8888/', 'read', 'ask'],
  [['127.0.0.1:8080', 'act'], 'http://127.0.0.1:8080/', 'act', 'act'],
  [['127.0.0.1:8080', 'act'], 'http://127.0.0.1:8081/', 'read', 'ask'],
  [['::1', 'blocked'], 'http://[::1]:3000/', 'read', 'blocked'],
  [['[::1]:80', 'act'], 'http://[0:0:0:0:0:0:0:1]/', 'act', 'act'],
  [['[::1]:8080', 'act'], 'http://[::1]:8080/', 'act', 'act'],
  [['[::1]:8080', 'act'], 'http://[::1]:8081/', 'read', 'ask'],
  [['http://[::1]:3000', 'act'], 'http://[::1]:3000/', 'act', 'act'],
  [['localhost:80', 'act'], 'http://127.0.0.1/', 'read', 'ask'],
  // A bare IP still matches that address alone, though only a block may name one without a port.
  [['127.0.0.1', 'blocked'], 'http://127.0.0.1:5173/', 'read', 'blocked'],
  [['127.0.0.1', 'blocked'], 'http://127.0.0.2:5173/', 'read', 'ask'],
  // IDN: rules and URLs meet in punycode, whichever way each was written.
  [['münchen.de', 'act'], 'https://xn--mnchen-3ya.de/', 'act', 'act'],
  [['xn--mnchen-3ya.de', 'act'], 'https://münchen.de/', 'act', 'act'],
  [['MÜNCHEN.de', 'act'], 'https://www.münchen.de/', 'act', 'act'],
  [['example.com', 'act'], 'https://exаmple.com/', 'read', 'ask'], // Cyrillic "а": a different host
  // Case and trailing dots are spelling, not a different site.
  [['Example.COM', 'act'], 'https://EXAMPLE.com/', 'act', 'act'],
  [['example.com.', 'act'], 'https://example.com/', 'act', 'act'],
  [['example.com', 'blocked'], 'https://example.com./', 'read', 'blocked'],
  [['example.com', 'blocked'], 'https://www.example.com../', 'read', 'blocked'],
  [['example.com', 'act'], 'https://ex%61mple.com/', 'act', 'act'],
  // userinfo: the host is after the "@", whatever precedes it.
  [['bank-like.com', 'act'], 'https://bank-like.com@evil.com/', 'read', 'ask'],
  [['evil.com', 'act'], 'https://bank-like.com@evil.com/', 'act', 'act'],
  [['example.com', 'act'], 'https://example.com:pw@evil.com/', 'read', 'ask'],
  [['example.com', 'act'], 'https://user:pass@example.com/', 'act', 'act'],
  // Backslashes are slashes in http(s) URLs, so the host ends at the first one.
  [['example.com', 'act'], 'https:\\\\evil.com\\@example.com', 'read', 'ask'],
  [['evil.com', 'act'], 'https:\\\\evil.com\\@example.com', 'act', 'act'],
  [['example.com', 'act'], 'https://evil.com\\.example.com', 'read', 'ask'],
  // The host is never in the path, query or fragment.
  [['example.com', 'act'], 'https://evil.com/example.com', 'read', 'ask'],
  [['example.com', 'act'], 'https://evil.com/?u=https://example.com', 'read', 'ask'],
  [['example.com', 'act'], 'https://evil.com#@example.com', 'read', 'ask'],
  [['example.com', 'act'], '  https://example.com/  ', 'act', 'act'],
  [['example.com', 'act'], 'https:example.com', 'act', 'act'],
  // blob: is judged by the origin that made it.
  [['example.com', 'act'], 'blob:https://example.com/3f2a-11', 'act', 'act'],
  [['example.com', 'act'], 'blob:https://evil.com/3f2a-11', 'read', 'ask'],
  [['example.com', 'act'], 'blob:null/3f2a-11', 'read', 'unsupported_scheme'],
  [null, 'blob:https://chase.com/3f2a-11', 'read', 'blind'],
  // Scripts and inline data have no site a rule could allow.
  [['example.com', 'trusted'], 'javascript:alert(1)', 'act', 'unsupported_scheme'],
  [['example.com', 'trusted'], 'java\tscript:alert(1)', 'read', 'unsupported_scheme'],
  [['example.com', 'trusted'], 'JAVASCRIPT:alert(1)', 'act', 'unsupported_scheme'],
  [['example.com', 'trusted'], 'data:text/html,<script>alert(1)</script>', 'act', 'unsupported_scheme'],
  [['example.com', 'trusted'], 'data:text/html,hello', 'read', 'unsupported_scheme'],
  [null, 'ftp://example.com/', 'read', 'unsupported_scheme'],
  [null, 'ws://example.com/', 'read', 'unsupported_scheme'],
  [null, 'mailto:a@example.com', 'read', 'unsupported_scheme'],
  // about:blank inherits an origin it does not show: nothing to judge it by.
  [['example.com', 'trusted'], 'about:blank', 'read', 'unsupported_scheme'],
  [['example.com', 'trusted'], 'about:srcdoc', 'read', 'unsupported_scheme'],
  [null, 'about:blank', 'none', 'none'],
  // Local files are blocked unless a file:// rule says otherwise.
  [null, 'file:///etc/passwd', 'read', 'blocked'],
  [['example.com', 'trusted'], 'file:///C:/Users/me/secrets.txt', 'read', 'blocked'],
  [['file://', 'read'], 'file:///home/me/report.html', 'read', 'read'],
  [['file://', 'read'], 'file:///home/me/report.html', 'act', 'below'],
  [['file:///', 'act'], 'file://server/share/a.html', 'act', 'act'],
  // Browser pages are blind whatever the rules say.
  [null, 'chrome://settings/passwords', 'read', 'blind'],
  [null, 'about:settings', 'read', 'blind'],
  [null, 'ABOUT:BLANK', 'read', 'blind'],
  [null, 'view-source:https://example.com/', 'read', 'blind'],
  // Nonsense is a bad URL, not a site.
  [['example.com', 'act'], 'example.com', 'read', 'bad_url'],
  [null, '', 'read', 'bad_url'],
  [null, 'https://', 'read', 'bad_url'],
  [null, 'http://exa mple.com/', 'read', 'bad_url'],
  [null, 'https://[::1/', 'read', 'bad_url'],
];

describe('evaluatePolicy matrix', () => {
  it.each(ROWS)('%j on %s needing %s → %s', (rule, url, need, expected) => {
    const decision = evaluatePolicy(url, need, policy(rule ? [rule] : []));
    expect(outcome(decision)).toBe(expected);
  });

  it('a site with no rule follows the default: ask, or blocked when the person chose that', () => {
    expect(outcome(evaluatePolicy('https://example.org/', 'read', policy([])))).toBe('ask');
    expect(outcome(evaluatePolicy('https://example.org/', 'read', policy([], { default: 'blocked' })))).toBe('blocked');
  });

  it('says which site, what it has and what was needed, in words a model can act on', () => {
    const decision = evaluatePolicy('https://docs.example.com/x', 'act', policy([['example.com', 'read']]));
    expect(decision).toMatchObject({
      allowed: false,
      reason: 'below',
      site: 'docs.example.com',
      have: 'read',
      need: 'act',
      rule: 'example.com',
    });
    if (decision.allowed) return;
    expect(decision.message).toBe('docs.example.com is allowed to read (rule "example.com"); this needs act.');
    expect(decision.next).toContain('--allow docs.example.com');
    const asked = evaluatePolicy('http://localhost:3000/', 'read', policy([]));
    expect(asked).toMatchObject({ allowed: false, reason: 'ask', site: 'localhost:3000', have: 'ask', need: 'read' });
    const allowed = evaluatePolicy('https://a.example.com:8443/', 'read', policy([['example.com', 'act']]));
    expect(allowed).toEqual({ allowed: true, level: 'act', site: 'a.example.com:8443' });
  });
});

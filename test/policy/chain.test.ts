// Navigations and downloads: every hop of a redirect chain must pass, so an open redirect cannot carry the agent off-policy.
import { describe, expect, it } from 'vitest';
import { evaluateChain, evaluateDownload } from '../../shared/policy/evaluate.js';
import { policy } from './support.js';

const allowed = policy([
  ['example.com', 'act'],
  ['partner.net', 'read'],
  ['tracker.io', 'blocked'],
]);

describe('evaluateChain', () => {
  it('allows a chain whose every hop is allowed, and reports the last hop', () => {
    const decision = evaluateChain(
      ['http://example.com/', 'https://example.com/', 'https://www.example.com/home'],
      'act',
      allowed,
    );
    expect(decision).toEqual({ allowed: true, level: 'act', site: 'www.example.com', hop: 2 });
  });

  it('an open redirect on an allowed site cannot land on an unknown one', () => {
    const decision = evaluateChain(
      ['https://example.com/redirect?to=https://evil.com/', 'https://evil.com/'],
      'read',
      allowed,
    );
    expect(decision).toMatchObject({ allowed: false, reason: 'ask', site: 'evil.com', hop: 1 });
  });

  it('refuses at the first hop that fails, whatever follows', () => {
    expect(
      evaluateChain(['https://example.com/', 'https://tracker.io/r', 'https://example.com/'], 'read', allowed),
    ).toMatchObject({ allowed: false, reason: 'blocked', site: 'tracker.io', hop: 1 });
    expect(evaluateChain(['https://example.com/', 'https://www.paypal.com/checkout'], 'read', allowed)).toMatchObject({
      allowed: false,
      reason: 'blind',
      hop: 1,
    });
    expect(evaluateChain(['https://example.com/', 'data:text/html,<h1>hi</h1>'], 'act', allowed)).toMatchObject({
      allowed: false,
      reason: 'unsupported_scheme',
      hop: 1,
    });
    expect(evaluateChain(['https://example.com/', 'javascript:alert(1)'], 'read', allowed)).toMatchObject({
      allowed: false,
      reason: 'unsupported_scheme',
      hop: 1,
    });
  });

  it('needs the level on every hop, not only the first', () => {
    expect(evaluateChain(['https://example.com/', 'https://partner.net/'], 'read', allowed)).toMatchObject({
      allowed: true,
      hop: 1,
    });
    expect(evaluateChain(['https://example.com/', 'https://partner.net/'], 'act', allowed)).toMatchObject({
      allowed: false,
      reason: 'below',
      site: 'partner.net',
      have: 'read',
      need: 'act',
      hop: 1,
    });
  });

  it('lets a navigation go to about:blank, which holds nothing yet', () => {
    expect(evaluateChain(['about:blank'], 'act', allowed)).toEqual({
      allowed: true,
      level: 'none',
      site: 'about:blank',
      hop: 0,
    });
    expect(evaluateChain(['about:blank', 'https://evil.com/'], 'read', allowed)).toMatchObject({
      allowed: false,
      reason: 'ask',
      hop: 1,
    });
  });

  it('an empty chain is not a navigation', () => {
    expect(evaluateChain([], 'read', allowed)).toMatchObject({ allowed: false, reason: 'bad_url', hop: 0 });
  });
});

describe('evaluateDownload', () => {
  it('is off until the person enables downloads', () => {
    expect(evaluateDownload(['https://example.com/report.pdf'], allowed)).toMatchObject({
      allowed: false,
      reason: 'downloads_off',
      site: 'example.com',
    });
  });

  it('once on, every hop must be readable', () => {
    const on = { ...allowed, downloads: true };
    expect(evaluateDownload(['https://example.com/report.pdf'], on)).toMatchObject({ allowed: true, hop: 0 });
    expect(evaluateDownload(['https://example.com/dl', 'https://cdn.evil.com/x.exe'], on)).toMatchObject({
      allowed: false,
      reason: 'ask',
      hop: 1,
    });
  });
});

// The engine's policy gate on documents with no site of their own: a frame with nothing committed yet, a fresh blank
// tab, and blank documents that carry their maker's origin.
import { describe, expect, it } from 'vitest';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { policyFromFlags } from '../../shared/policy/flags.js';

const gate = new PolicyGate(() => policyFromFlags({ allow: ['shop.example'], trust: [] }));

describe('the policy gate', () => {
  it('lets a document with nothing in it be read and acted on, never scripted', () => {
    for (const place of [
      { url: '' },
      { url: 'about:blank' },
      { url: 'about:blank', origin: '://' },
      { url: 'about:srcdoc', origin: 'null' },
    ]) {
      expect(gate.allows(place, 'read')).toBe(true);
      expect(gate.allows(place, 'act')).toBe(true);
      expect(gate.allows(place, 'trusted')).toBe(false);
    }
  });

  it('tells a script aimed at a tab with no page yet to wait, not that its URL is bad', () => {
    for (const place of [{ url: '' }, { url: '', origin: '://' }]) {
      const decision = gate.decide(place, 'trusted');
      expect(decision).toMatchObject({ allowed: false, reason: 'no_page' });
      expect(decision.allowed || decision.next).toContain('wait_for');
    }
  });

  it('judges a blank document that took an origin by that origin', () => {
    expect(gate.allows({ url: 'about:blank', origin: 'https://shop.example' }, 'act')).toBe(true);
    expect(gate.decide({ url: 'about:blank', origin: 'https://bank.example' }, 'read')).toMatchObject({
      allowed: false,
      reason: 'ask',
      site: 'bank.example',
    });
    expect(gate.decide({ url: '', origin: 'https://www.chase.com' }, 'read')).toMatchObject({
      allowed: false,
      reason: 'blind',
    });
  });
});

describe('judgements kept while a policy stands', () => {
  it('follow a policy replaced whole at once, for every document and need judged before', () => {
    let policy = policyFromFlags({ allow: ['shop.example'], trust: [] });
    const held = new PolicyGate(() => policy);
    const shop = { url: 'https://shop.example/cart' };
    expect(held.allows(shop, 'read')).toBe(true);
    expect(held.allows(shop, 'trusted')).toBe(false);
    expect(held.allows({ url: 'https://bank.example/' }, 'read')).toBe(false);

    policy = policyFromFlags({ allow: ['bank.example'], trust: ['shop.example'] });
    expect(held.allows(shop, 'trusted')).toBe(true);
    expect(held.allows({ url: 'https://bank.example/' }, 'read')).toBe(true);

    policy = policyFromFlags({ allow: [], trust: [] });
    expect(held.allows(shop, 'read')).toBe(false);
    expect(held.judgeEach('read')(shop)).toBe(false);
  });

  it('keep a document’s origin apart from its URL, and hand out judgements no caller can change', () => {
    const blank = { url: 'about:blank' };
    expect(gate.allows(blank, 'trusted')).toBe(false);
    expect(gate.allows({ ...blank, origin: 'https://shop.example' }, 'read')).toBe(true);
    expect(gate.allows({ ...blank, origin: 'https://bank.example' }, 'read')).toBe(false);
    const decision = gate.decide({ url: 'https://bank.example/' }, 'read');
    expect(() => Object.assign(decision, { allowed: true })).toThrow(TypeError);
    expect(gate.allows({ url: 'https://bank.example/' }, 'read')).toBe(false);
  });
});

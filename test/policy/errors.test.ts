// A refusal becomes a ToolError the model can act on: asked → DOMAIN_CONFIRMATION_REQUIRED, refused → POLICY_DENIED.
import { describe, expect, it } from 'vitest';
import { policyError } from '../../shared/protocol/policy-error.js';
import { evaluatePolicy } from '../../shared/policy/evaluate.js';
import { policy } from './support.js';

function refusal(url: string, need: 'read' | 'act' | 'trusted', rules: Parameters<typeof policy>[0] = []) {
  const decision = evaluatePolicy(url, need, policy(rules));
  if (decision.allowed) throw new Error(`expected ${url} to be refused`);
  return decision;
}

describe('policyError', () => {
  it('an undecided site asks the person, naming the exact origin an answer would grant', () => {
    const error = policyError(refusal('https://new.example/', 'read'));
    expect(error.code).toBe('DOMAIN_CONFIRMATION_REQUIRED');
    expect(error.message).toBe('The person has not decided about new.example yet.');
    expect(error.data).toEqual({
      reason: 'ask',
      site: 'new.example',
      origin: 'https://new.example',
      have: 'ask',
      need: 'read',
    });
    expect(policyError(refusal('http://localhost:8888/tree', 'read')).data).toMatchObject({
      site: 'localhost:8888',
      origin: 'http://localhost:8888',
    });
    expect(policyError(refusal('http://127.0.0.1/', 'read')).data).toMatchObject({
      site: '127.0.0.1',
      origin: 'http://127.0.0.1',
    });
  });

  it('every other refusal is POLICY_DENIED with its reason, site and the rule that decided', () => {
    const below = policyError(refusal('https://example.com/', 'trusted', [['example.com', 'act']]));
    expect(below.code).toBe('POLICY_DENIED');
    expect(below.next).toContain('--trust example.com');
    expect(below.data).toEqual({
      reason: 'below',
      site: 'example.com',
      have: 'act',
      need: 'trusted',
      rule: 'example.com',
    });
    expect(policyError(refusal('https://www.paypal.com/', 'read')).data).toMatchObject({
      reason: 'blind',
      have: 'blind',
    });
    expect(policyError(refusal('javascript:void(0)', 'act')).data).toMatchObject({ reason: 'unsupported_scheme' });
  });
});

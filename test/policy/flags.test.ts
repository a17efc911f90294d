// --allow and --trust: comma lists, repeated flags, and errors that name the flag.
import { describe, expect, it } from 'vitest';
import { evaluatePolicy } from '../../shared/policy/evaluate.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { DEFAULT_POLICY } from '../../shared/policy/policy.js';
import { outcome } from './support.js';

describe('policyFromFlags', () => {
  it('grants act for --allow and trusted for --trust, comma-separated and repeated', () => {
    const run = policyFromFlags({
      allow: ['example.com, localhost:3000', 'docs.example.org,'],
      trust: ['http://127.0.0.1:5173'],
    });
    expect(run.rules).toEqual([]);
    expect(run.grants.map((grant) => grant.level)).toEqual(['act', 'act', 'act', 'trusted']);
    expect(outcome(evaluatePolicy('https://a.example.com/', 'act', run))).toBe('act');
    expect(outcome(evaluatePolicy('https://a.example.com/', 'trusted', run))).toBe('below');
    expect(outcome(evaluatePolicy('http://localhost:3000/', 'act', run))).toBe('act');
    expect(outcome(evaluatePolicy('https://docs.example.org/', 'act', run))).toBe('act');
    expect(outcome(evaluatePolicy('http://127.0.0.1:5173/', 'trusted', run))).toBe('trusted');
    expect(outcome(evaluatePolicy('https://other.org/', 'read', run))).toBe('ask');
  });

  it('keeps the base policy and adds to its grants', () => {
    const base = { ...DEFAULT_POLICY, default: 'blocked' as const, downloads: true };
    const run = policyFromFlags(
      { allow: ['a.com'], trust: [] },
      policyFromFlags({ allow: [], trust: ['b.com'] }, base),
    );
    expect(run).toMatchObject({ default: 'blocked', downloads: true });
    expect(run.grants).toHaveLength(2);
  });

  it('no flags, no grants: the safe default stands', () => {
    expect(policyFromFlags({ allow: [], trust: [] })).toEqual(DEFAULT_POLICY);
  });

  it('names the flag and the value for every bad entry', () => {
    expect(() => policyFromFlags({ allow: ['good.com,https://x.com/path'], trust: ['*'] })).toThrow(
      /--allow: "https:\/\/x\.com\/path": a rule names a site[\s\S]*--trust: "\*": a rule cannot cover every site/,
    );
  });
});

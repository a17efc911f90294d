// A link's policy: the safe default until the core's first policy parses, and `loaded` says when that was.
import { describe, expect, it } from 'vitest';
import { PolicyHolder } from '../../extension/src/policy-holder.js';
import { DEFAULT_POLICY } from '../../shared/policy/policy.js';
import { policyToTransfer } from '../../shared/policy/transfer.js';
import { TEST_POLICY } from '../support/test-policy.js';

const settled = (promise: Promise<void>) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 50))]);

describe('a link’s policy', () => {
  it('is loaded only once a policy from the core parses: a window kept from before waits for it', async () => {
    const holder = new PolicyHolder();
    expect(holder.current()).toBe(DEFAULT_POLICY);
    expect(await settled(holder.loaded)).toBe(false);
    const broken = { ...policyToTransfer(TEST_POLICY), rules: [{ site: '::not a site::', level: 'act' }] };
    holder.update(broken as never);
    expect(holder.current()).toBe(DEFAULT_POLICY);
    expect(await settled(holder.loaded)).toBe(false);
    holder.update(policyToTransfer(TEST_POLICY));
    expect(await settled(holder.loaded)).toBe(true);
    expect(holder.current()).not.toBe(DEFAULT_POLICY);
  });
});

// A live policy change reaches the engine inside the real extension: the core's bridge sends it on policyChanged(),
// and the very next step on the same tab is judged by it, with no reconnect in between.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSitePattern } from '../../shared/policy/pattern.js';
import { DEFAULT_POLICY, type Policy } from '../../shared/policy/policy.js';
import { startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';
import { testServerPolicy } from '../support/test-policy.js';

const ALLOWED = testServerPolicy('act', ['127.0.0.1']);
const BLOCKED: Policy = { ...DEFAULT_POLICY, rules: [{ site: parseSitePattern('127.0.0.1'), level: 'blocked' }] };

let current = ALLOWED;
let linked: LinkedExtension;
let tab: string;

beforeAll(async () => {
  linked = await startLinkedExtension({ policy: () => current });
  const opened = await linked.run('tab_new', { url: linked.fixtures.url('nav-a.html') });
  tab = String(opened.data?.['tab']);
});

afterAll(async () => {
  await linked?.close();
});

function change(policy: Policy): void {
  current = policy;
  linked.bridge.policyChanged();
}

/** `ok` with the page's heading read, or the error code. */
const snapshot = () =>
  linked.run('snapshot', { tab }).then(
    (result) => (result.text.includes('Page A') ? 'ok' : result.text),
    (error: { code?: string }) => error.code ?? String(error),
  );

describe('a live policy change', () => {
  it('blocks the next step on the same tab at once, and allows it again when switched back, on one link', async () => {
    const link = linked.bridge.link();
    expect(await snapshot()).toBe('ok');
    change(BLOCKED);
    expect(await snapshot()).toBe('POLICY_DENIED');
    change(ALLOWED);
    expect(await snapshot()).toBe('ok');
    expect(linked.bridge.link()).toBe(link);
  });

  it('asks the person about the site once the new policy has no rule for it', async () => {
    change(DEFAULT_POLICY);
    expect(await snapshot()).toBe('DOMAIN_CONFIRMATION_REQUIRED');
    change(ALLOWED);
    expect(await snapshot()).toBe('ok');
  });
});

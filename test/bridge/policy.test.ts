// The site policy on the wire: the frame round-trips through the schema and anything else is dropped; the bridge sends
// the policy to every new link right after `welcome`, before any command, and again to the active link on a change.
import { describe, expect, it } from 'vitest';
import { parseSitePattern } from '../../shared/policy/pattern.js';
import { DEFAULT_POLICY, type Policy } from '../../shared/policy/policy.js';
import { policyFromTransfer, policyToTransfer } from '../../shared/policy/transfer.js';
import { coreFrame, decodeFrame } from '../../shared/protocol/wire.js';
import { TEST_POLICY } from '../support/test-policy.js';
import { startBridge } from './support/bridge-harness.js';
import { ok } from './support/peer.js';

const BLOCKED: Policy = {
  ...DEFAULT_POLICY,
  default: 'blocked',
  rules: [{ site: parseSitePattern('127.0.0.1'), level: 'blocked' }],
};

const RICH: Policy = {
  rules: [
    { site: parseSitePattern('example.com'), level: 'read' },
    { site: parseSitePattern('*.example.org'), level: 'blocked' },
    { site: parseSitePattern('localhost:3000'), level: 'trusted' },
    { site: parseSitePattern('https://app.example.net:8443'), level: 'act' },
    { site: parseSitePattern('file://'), level: 'read' },
  ],
  grants: [{ site: parseSitePattern('[::1]:8080'), level: 'act' }],
  default: 'blocked',
  downloads: true,
  tools: ['devtools', 'files'],
  self: [parseSitePattern('http://127.0.0.1:38018')],
};

const frameText = (policy: unknown) => JSON.stringify({ type: 'policy', policy });

describe('the policy frame', () => {
  it('round-trips a policy through the schema and back into the same Policy', () => {
    const frame = decodeFrame(coreFrame, frameText(policyToTransfer(RICH)));
    expect(frame).toEqual({ type: 'policy', policy: policyToTransfer(RICH) });
    expect(frame?.type === 'policy' && policyFromTransfer(frame.policy)).toEqual(RICH);
  });

  it('is dropped whole when any part of it is malformed', () => {
    const good = policyToTransfer(RICH);
    const malformed: unknown[] = [
      undefined,
      null,
      'x',
      { ...good, extra: true },
      { ...good, default: 'allow' },
      { ...good, downloads: 'yes' },
      { ...good, rules: [{ site: 'example.com', level: 'root' }] },
      { ...good, rules: [{ site: 'example.com', level: 'read', note: 'x' }] },
      { ...good, rules: [{ site: '', level: 'read' }] },
      { ...good, rules: [{ site: 'x'.repeat(301), level: 'read' }] },
      { ...good, rules: Array.from({ length: 2_001 }, () => ({ site: 'example.com', level: 'read' })) },
      { ...good, grants: undefined },
      { ...good, self: [1] },
    ];
    for (const policy of malformed)
      expect(decodeFrame(coreFrame, frameText(policy)), JSON.stringify(policy)?.slice(0, 120)).toBeUndefined();
    expect(decodeFrame(coreFrame, JSON.stringify({ type: 'policy', policy: good, extra: 1 }))).toBeUndefined();
  });
});

describe('the bridge and the policy', () => {
  it('sends the policy read at connect time right after welcome, before the first command', async () => {
    let current = DEFAULT_POLICY;
    const { bridge, auth, dial } = await startBridge({ policy: () => current });
    current = TEST_POLICY;
    // The earliest any caller can send a command: as soon as the link is announced.
    bridge.once('connected', (link) => void link.call('tabs', {}).catch(() => undefined));
    const peer = await dial();
    await peer.greet(auth.current);
    await expect.poll(() => peer.frames.length).toBeGreaterThanOrEqual(3);
    expect(peer.frames.map((frame) => frame.type)).toEqual(['welcome', 'policy', 'command']);
    expect(peer.frames[1]).toEqual({ type: 'policy', policy: policyToTransfer(TEST_POLICY) });
  });

  it('sends the current policy to the active link at once on policyChanged, and the link keeps serving', async () => {
    let current = TEST_POLICY;
    const { bridge, connect } = await startBridge({ policy: () => current });
    const peer = await connect();
    expect((await peer.next('policy')).policy).toEqual(policyToTransfer(TEST_POLICY));
    const session = bridge.link()?.identity.session;

    current = BLOCKED;
    bridge.policyChanged();
    expect((await peer.next('policy')).policy).toEqual(policyToTransfer(BLOCKED));
    current = RICH;
    bridge.policyChanged();
    expect((await peer.next('policy')).policy).toEqual(policyToTransfer(RICH));

    peer.serve((command) => ok(command));
    expect(await bridge.link()?.call('tabs', {})).toEqual({ text: 'did tabs' });
    expect(bridge.link()?.identity.session).toBe(session);
  });

  it('does nothing while no link is up, and sends only to the active link after a replacement', async () => {
    let current = TEST_POLICY;
    const { bridge, connect } = await startBridge({ policy: () => current });
    expect(() => bridge.policyChanged()).not.toThrow();

    const first = await connect();
    const second = await connect();
    await first.closed;
    expect((await second.next('policy')).policy).toEqual(policyToTransfer(TEST_POLICY));
    current = BLOCKED;
    bridge.policyChanged();
    expect((await second.next('policy')).policy).toEqual(policyToTransfer(BLOCKED));
    expect(first.frames.filter((frame) => frame.type === 'policy')).toEqual([
      { type: 'policy', policy: policyToTransfer(TEST_POLICY) },
    ]);
  });
});

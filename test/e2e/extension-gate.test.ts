// The risky-act gate end to end: the built chrome-mcp driving the person's Chrome through the extension, a checkout and
// a mail page on a site the agent may act on (not trusted), and the person deciding through the control API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateSite, type GateSite } from '../support/gate-site.js';
import { startLinkedCore, type LinkedCore } from '../support/linked-core.js';
import { dataOf, textOf } from '../support/tool-result.js';
import { testServerFlags } from '../support/test-policy.js';

let site: GateSite;
let core: LinkedCore;

beforeAll(async () => {
  site = await startGateSite();
  // 127.0.0.1 may be acted on, not trusted: risky acts there wait for the person.
  core = await startLinkedCore(testServerFlags('act', ['127.0.0.1']));
});

afterAll(async () => {
  await core?.close();
  await site?.close();
});

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = await core.client.callTool({ name, arguments: args });
  return { text: textOf(result), data: dataOf(result) };
}

describe('a risky act through the extension', () => {
  it('is held unsent, shown to the person with the password masked, and sent as shown when released', async () => {
    await call('tab_new', { url: site.url('gate-mail.html') });
    const before = site.received.length;
    const held = await call('click', { selector: '#send' });
    expect(held.text).toMatch(/^HELD: .*\(held as (\S+)\)/);
    expect(site.received.slice(before)).toEqual([]);
    const [act] = (await core.control.call('held.list')).held;
    expect(act).toMatchObject({ method: 'POST', site: expect.stringContaining('127.0.0.1'), tool: 'click' });
    expect(act!.summary).toContain('to=alice@example.com');
    expect(act!.summary).not.toContain('s3cret-Sign-Pass');
    expect((await core.control.call('held.decide', { id: act!.id, release: true })).outcome).toBe('released');
    const sent = await site.arrival('/api/messages', before);
    expect(sent.method).toBe('POST');
    expect(sent.body).toContain('alice@example.com');
  });

  it('is never sent when the person rejects it, and the audit log says it was held', async () => {
    await call('navigate', { url: site.url('gate-mail.html') });
    const before = site.received.length;
    await call('click', { selector: '#delete' });
    const [act] = (await core.control.call('held.list')).held;
    expect(act).toMatchObject({ method: 'DELETE' });
    expect((await core.control.call('held.decide', { id: act!.id, release: false })).outcome).toBe('rejected');
    // A later request proves the page is live and the rejected one never went: only the probe arrives.
    await call('click', { selector: '#send' });
    const [probe] = (await core.control.call('held.list')).held;
    await core.control.call('held.decide', { id: probe!.id, release: true });
    await site.arrival('/api/messages', before);
    expect(site.received.slice(before).map((request) => request.method)).toEqual(['POST']);
    const { entries } = await core.control.call('audit.read', { decision: 'held' });
    expect(entries.length).toBeGreaterThanOrEqual(2);
  });
});

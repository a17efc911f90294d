// The agent's routes on a send the person released, through a real MCP client over stdio in both backends: the gate
// holds the page's POST /api/messages, the person releases it in the control API, and the route still has the last
// word on what goes out: a block sends nothing to the site, a mock answers in its place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readControlFile } from '../../electron/core/control/control-file.js';
import { createControlClient, loopbackOrigin, type ControlClient } from '../../shared/control/client.js';
import { startGateSite, type GateSite } from '../support/gate-site.js';
import { BACKENDS, startMcpBackend, type McpBackend } from '../support/mcp-backends.js';
import { testServerFlags } from '../support/test-policy.js';
import { textOf } from '../support/tool-result.js';

describe.each(BACKENDS)('network_route on a held send the person released (%s)', (backend) => {
  let site: GateSite;
  let mcp: McpBackend;
  let control: ControlClient;

  beforeAll(async () => {
    site = await startGateSite();
    // The site may be acted on, not trusted: what it sends as the person waits for them.
    mcp = await startMcpBackend(backend, testServerFlags('act', ['127.0.0.1']));
    const file = readControlFile(mcp.dataDir);
    if (!file) throw new Error('chrome-mcp wrote no control.json');
    control = createControlClient({ origin: loopbackOrigin(file.port), token: file.token });
  }, 120_000);

  afterAll(async () => {
    await mcp?.close();
    await site?.close();
  });

  /** Opens the mail page, routes its sends with `route`, clicks Send and has the person release the held send. */
  async function releaseRoutedSend(route: Record<string, unknown>): Promise<void> {
    await mcp.call('tab_new', { url: site.url('gate-mail.html') });
    expect(await mcp.call('network_route', { action: 'add', url: '*/api/messages', ...route })).toMatch(
      /^network_route: added r1 /,
    );
    const held = await mcp.result('click', { selector: '#send' });
    expect(textOf(held)).toMatch(/^HELD: .*POST \S+\/api\/messages \(held as \S+\)/);
    const [card] = (await control.call('held.list')).held;
    expect((await control.call('held.decide', { id: card!.id, release: true })).outcome).toBe('released');
  }

  /** The writes the site received, once the page's own harmless request (sent after the release) has arrived. */
  async function writesReceived(): Promise<string[]> {
    const before = site.received.length;
    await mcp.call('click', { selector: '#refresh' });
    await site.arrival('/api/inbox', before);
    return site.received.filter((entry) => entry.method !== 'GET').map((entry) => `${entry.method} ${entry.path}`);
  }

  it('blocks the released send: the site receives nothing', async () => {
    site.received.length = 0;
    await releaseRoutedSend({ block: true });
    expect(await writesReceived()).toEqual([]);
    expect(await mcp.call('network_route', { action: 'list' })).toMatch(/\nr1 \* \*\/api\/messages → block \(1 hit\)$/);
    await mcp.call('tab_close');
  });

  it('mocks the released send: the mock answers it, and the site receives nothing', async () => {
    site.received.length = 0;
    await releaseRoutedSend({ mock: { status: 201, body: 'mocked send' } });
    await expect
      .poll(() => mcp.call('network', { url: 'api/messages' }), { timeout: 15_000 })
      .toMatch(/ POST 201 fetch mocked:r1 .*\/api\/messages$/m);
    expect(await writesReceived()).toEqual([]);
    await mcp.call('tab_close');
  });
});

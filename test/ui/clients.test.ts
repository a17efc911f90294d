// Connected clients in real Chromium against a real `chrome-mcp serve`: the Oversight screen says quietly that no MCP
// client is connected, lists each client that connects through its own relay by name and since when, and drops one
// whose relay exits, live, as the activity events arrive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUpDataDirs, coreReady, freshDataDir, relayClient, spawnServe } from '../host/support.js';
import { openPanel, type OpenPanel } from './support/panel.js';

let dataDir: string;
let panel: OpenPanel;

beforeAll(async () => {
  dataDir = freshDataDir();
  spawnServe(dataDir);
  await coreReady(dataDir);
  panel = await openPanel(dataDir);
  await panel.show('Oversight');
});

afterAll(async () => {
  await panel?.close();
  await cleanUpDataDirs();
});

describe('connected clients', () => {
  it('shows who is connected and since when, and follows clients coming and going', async () => {
    const { page } = panel;
    const card = page.locator('section.card').filter({ has: page.getByRole('heading', { name: 'Connected clients' }) });
    await card.getByText('No MCP client is connected.').waitFor();

    const desktop = await relayClient(dataDir, 'Claude Desktop');
    const code = await relayClient(dataDir, 'Claude Code');
    const list = card.getByRole('list', { name: 'Connected clients' });
    await expect
      .poll(() => list.getByRole('listitem').allTextContents(), { timeout: 10_000 })
      .toEqual([expect.stringMatching(/^Claude Desktop since \d/), expect.stringMatching(/^Claude Code since \d/)]);
    await panel.shot('oversight-clients');

    await desktop.client.close();
    await expect
      .poll(() => list.getByRole('listitem').allTextContents(), { timeout: 10_000 })
      .toEqual([expect.stringMatching(/^Claude Code since /)]);
    await page.getByRole('list', { name: 'Steps' }).getByText('MCP client disconnected: Claude Desktop').waitFor();
    await code.client.close();
    await card.getByText('No MCP client is connected.').waitFor();
    expect(panel.errors).toEqual([]);
  });
});

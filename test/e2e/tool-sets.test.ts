// The person switching opt-in tool sets on and off while an agent is connected: the built `chrome-mcp` on stdio with
// no --caps, a real MCP client, and the control API the panel uses. The client is told the list changed and lists the
// tools again; a tool switched off is refused by name; the choice is saved in the policy file and read at the next start.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readControlFile } from '../../electron/core/control/control-file.js';
import { createControlClient, loopbackOrigin, type ControlClient } from '../../shared/control/client.js';
import { textOf } from '../support/tool-result.js';
import { testServerFlags } from '../support/test-policy.js';
import { removeDir } from '../support/remove-dir.js';

const CLI = fileURLToPath(new URL('../../dist/electron/helper/cli.js', import.meta.url));
const chosenBrowser = process.env['CHROME_MCP_CHROMIUM'];
const childEnv: Record<string, string> = chosenBrowser ? { CHROME_MCP_CHROMIUM: chosenBrowser } : {};

let dataDir: string;
let running: { client: Client; control: ControlClient; changes: number };

async function start(): Promise<typeof running> {
  const args = [
    CLI,
    '--headless',
    '--browser',
    'fallback',
    '--data-dir',
    dataDir,
    ...testServerFlags('act', ['127.0.0.1']),
  ];
  const client = new Client({ name: 'tool-sets-e2e', version: '1' });
  const started = { client, changes: 0 } as typeof running;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void started.changes++);
  await client.connect(new StdioClientTransport({ command: process.execPath, args, env: childEnv, stderr: 'ignore' }));
  const file = readControlFile(dataDir);
  if (!file) throw new Error('chrome-mcp wrote no control.json');
  started.control = createControlClient({ origin: loopbackOrigin(file.port), token: file.token });
  return started;
}

const listed = async () => (await running.client.listTools()).tools.map((tool) => tool.name);

async function setTools(tools: ('devtools' | 'files' | 'extra')[]): Promise<void> {
  const view = await running.control.call('policy.get');
  await running.control.call('policy.set', {
    rules: view.rules,
    default: view.default,
    downloads: view.downloads,
    tools,
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-tool-sets-'));
  running = await start();
});

afterAll(async () => {
  await running?.client.close();
  removeDir(dataDir);
});

describe('opt-in tool sets the person switches', () => {
  it('are off by default, listed once switched on, and refused again once switched off', async () => {
    expect(await listed()).not.toContain('console');
    expect(textOf(await running.client.callTool({ name: 'console', arguments: {} }))).toMatch(
      /^TOOL_OFF: console is in the opt-in "devtools" tools, which are off\.\nNext: Ask the person to switch on the "devtools" tools in chrome-mcp's Allowed sites screen/,
    );

    await setTools(['devtools']);
    await expect.poll(() => running.changes).toBe(1);
    const on = await listed();
    expect(on).toEqual(expect.arrayContaining(['console', 'network', 'network_get', 'inspect']));
    expect(on).not.toContain('download');
    expect((await running.control.call('policy.get')).tools).toEqual(['devtools']);
    await running.client.callTool({ name: 'tab_new', arguments: { url: 'about:blank' } });
    expect(textOf(await running.client.callTool({ name: 'console', arguments: {} }))).not.toMatch(/^[A-Z_]+: /);

    // A change that leaves the sets as they were tells no one.
    await setTools(['devtools']);
    await setTools([]);
    await expect.poll(() => running.changes).toBe(2);
    expect(await listed()).not.toContain('console');
    // stdio keeps order: every notification sent before that answer has been heard, so a third would show here.
    expect(running.changes).toBe(2);
    expect(textOf(await running.client.callTool({ name: 'console', arguments: {} }))).toMatch(/^TOOL_OFF: /);
  });

  it('refuses a set it does not know, or one named twice, changing nothing', async () => {
    const before = await running.control.call('policy.get');
    for (const tools of [['everything'], ['files', 'files']])
      await expect(
        running.control.call('policy.set', {
          rules: before.rules,
          default: before.default,
          downloads: false,
          tools,
        } as never),
      ).rejects.toThrow(/tools/);
    expect((await running.control.call('policy.get')).tools).toEqual(before.tools);
  });

  it('are saved in the policy file and listed from the next start on', async () => {
    await setTools(['files']);
    const file = (await running.control.call('policy.get')).file;
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 1, tools: ['files'] });
    await running.client.close();
    running = await start();
    expect(await listed()).toEqual(expect.arrayContaining(['download', 'downloads']));
    expect(await listed()).not.toContain('console');
  });
});

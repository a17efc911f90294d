// The built `chrome-mcp` on stdio with --browser extension, paired with the real extension in real Chromium through
// the native host: the agent's MCP client, the person's control client (from control.json), and the server's stderr.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readControlFile } from '../../electron/core/control/control-file.js';
import { createControlClient, loopbackOrigin, type ControlClient } from '../../shared/control/client.js';
import type { StatusReport } from '../../electron/core/mcp/status.js';
import { until } from '../extension/support/until.js';
import { CLI, envWithoutKeychain, runCli } from '../pairing/support/cli.js';
import { startExtensionBrowser, type ExtensionBrowser } from './extension-browser.js';
import { ALL_CAPS } from './all-caps.js';
import { removeDir } from './remove-dir.js';

export interface LinkedCore {
  /** The agent's side: a real MCP client on the server's stdio. */
  client: Client;
  /** The person's side: the loopback control API, with the port and token chrome-mcp wrote to control.json. */
  control: ControlClient;
  controlPort: number;
  dataDir: string;
  /** The person's Chromium, with the real extension linked. */
  browser: ExtensionBrowser;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** The `status` tool's structured answer. */
  status(): Promise<StatusReport>;
  close(): Promise<void>;
}

/** `flags`: chrome-mcp's policy flags for the run (--allow, --trust, --policy). */
export async function startLinkedCore(flags: readonly string[]): Promise<LinkedCore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-linked-'));
  // No keychain in the server's environment: the secret goes to the 0600 file, as on a headless box.
  const env = envWithoutKeychain();
  const logged: string[] = [];
  const client = new Client({ name: 'e2e-linked', version: '1' });
  let browser: ExtensionBrowser | undefined;
  const close = async () => {
    await client.close();
    await browser?.close();
    removeDir(dataDir);
  };
  try {
    const transport = new StdioClientTransport({
      command: process.execPath,
      // Every opt-in tool listed: these runs cover the whole catalog.
      args: [CLI, '--headless', '--browser', 'extension', '--port', '0', '--data-dir', dataDir, ...ALL_CAPS, ...flags],
      env: env as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => logged.push(chunk.toString()));
    await client.connect(transport);
    const file = readControlFile(dataDir);
    if (!file) throw new Error('chrome-mcp wrote no control.json');
    const status = async () =>
      (await client.callTool({ name: 'status', arguments: {} })).structuredContent as unknown as StatusReport;
    browser = await startExtensionBrowser();
    const install = await runCli(
      ['install-native-host', '--browser-data-dir', browser.profileDir, '--data-dir', dataDir],
      { env },
    );
    if (install.code !== 0) throw new Error(`install-native-host failed: ${install.stderr}`);
    // The worker asked for pairing at start, before the host existed; opening the popup wakes it to ask again now
    // (its alarm would, a few seconds later).
    const popup = await browser.openPage('popup.html');
    const linked = await until(status, (report) => report.extension.connected, 15_000);
    if (!linked.extension.connected)
      throw new Error(`the extension never connected: ${JSON.stringify(linked.extension)}\n${logged.join('')}`);
    // Its work is done; left open it would be the active tab an agent's first call lands on.
    await popup.close();
    const control = createControlClient({ origin: loopbackOrigin(file.port), token: file.token });
    return { client, control, controlPort: file.port, dataDir, browser, stderr: () => logged.join(''), status, close };
  } catch (error) {
    await close();
    throw error;
  }
}

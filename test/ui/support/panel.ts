// The panel in real Chromium against a real core: the built `chrome-mcp` on stdio driving its fallback browser (the
// agent's side, a real MCP client), and the panel it serves opened at the address `chrome-mcp ui --print` gives —
// the person's side, clicked through playwright-core. Console errors (a CSP refusal among them) are collected.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium, type Browser, type Page } from 'playwright-core';
import { readControlFile } from '../../../electron/core/control/control-file.js';
import { createControlClient, loopbackOrigin, type ControlClient } from '../../../shared/control/client.js';
import { textOf } from '../../support/tool-result.js';
import { ALL_CAPS } from '../../support/all-caps.js';
import { removeDir } from '../../support/remove-dir.js';

const CLI = fileURLToPath(new URL('../../../dist/electron/helper/cli.js', import.meta.url));
const SHOTS = fileURLToPath(new URL('../../../test-output/ui/', import.meta.url));
const chosenBrowser = process.env['CHROME_MCP_CHROMIUM'];

export type ScreenName = 'Needs you' | 'Oversight' | 'Allowed sites' | 'Connection' | 'Audit log';

export interface OpenPanel {
  /** The panel, opened and linked to the core. */
  page: Page;
  /** The address `chrome-mcp ui --print` gave (it holds the token). */
  address: string;
  show(screen: ScreenName): Promise<void>;
  /** Saves the page to test-output/ui/<name>.png and prints the path. */
  shot(name: string): Promise<string>;
  /** Console errors (a CSP refusal among them) and uncaught page errors so far. */
  errors: string[];
  close(): Promise<void>;
}

export interface PanelRun extends OpenPanel {
  /** The agent's tool call, as the model reads its result. */
  call(name: string, args?: Record<string, unknown>): Promise<string>;
  /** The person's side without the panel, for setting the scene and checking what the core holds. */
  control: ControlClient;
  controlPort: number;
  dataDir: string;
}

/** Opens the panel of the core running on `dataDir` the way a person does, through `chrome-mcp ui`. */
export async function openPanel(dataDir: string): Promise<OpenPanel> {
  const ui = spawnSync(process.execPath, [CLI, 'ui', '--print', '--data-dir', dataDir], { encoding: 'utf8' });
  if (ui.status !== 0) throw new Error(`chrome-mcp ui --print failed: ${ui.stderr}`);
  const address = ui.stdout.trim();
  const browser: Browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    const errors: string[] = [];
    // A refused call's HTTP status is logged by the browser too; that is the API answering, not the page failing.
    page.on(
      'console',
      (message) =>
        message.type() === 'error' &&
        !message.text().startsWith('Failed to load resource') &&
        errors.push(message.text()),
    );
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(address);
    await page.getByRole('status').filter({ hasText: 'Connected to chrome-mcp' }).waitFor();
    return {
      page,
      address,
      show: (screen) => page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: screen }).click(),
      async shot(name) {
        mkdirSync(SHOTS, { recursive: true });
        const path = join(SHOTS, `${name}.png`);
        await page.screenshot({ path, fullPage: true });
        console.log(`screenshot: ${path}`);
        return path;
      },
      errors,
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** A fresh core on the fallback browser with `flags` (its policy flags), and its panel open. */
export async function startPanel(flags: readonly string[] = []): Promise<PanelRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-ui-'));
  const client = new Client({ name: 'ui-test-agent', version: '1' });
  let panel: OpenPanel | undefined;
  const close = async () => {
    await panel?.close();
    await client.close();
    removeDir(dataDir);
  };
  try {
    // Every opt-in tool listed: the panel's tests drive batch, which is opt-in.
    const args = [CLI, '--headless', '--browser', 'fallback', '--data-dir', dataDir, ...ALL_CAPS, ...flags];
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args,
        env: chosenBrowser ? { CHROME_MCP_CHROMIUM: chosenBrowser } : {},
        stderr: 'ignore',
      }),
    );
    const file = readControlFile(dataDir);
    if (!file) throw new Error('chrome-mcp wrote no control.json');
    panel = await openPanel(dataDir);
    return {
      ...panel,
      call: async (name, toolArgs = {}) => textOf(await client.callTool({ name, arguments: toolArgs })),
      control: createControlClient({ origin: loopbackOrigin(file.port), token: file.token }),
      controlPort: file.port,
      dataDir,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

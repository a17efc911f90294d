// JavaScript dialogs in the launched browser: the built `chrome-mcp` on stdio, driving its own headless Chromium
// over the launch pipe (test/support/dialog-scenarios.ts has the scenarios both backends run).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe } from 'vitest';
import { dialogScenarios, serveDialogPages } from '../support/dialog-scenarios.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { TEST_POLICY_FLAGS } from '../support/test-policy.js';
import { ALL_CAPS } from '../support/all-caps.js';

const CLI = fileURLToPath(new URL('../../dist/electron/helper/cli.js', import.meta.url));

let fixtures: FixtureServer;
let client: Client;
let dataDir: string;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  serveDialogPages(fixtures);
  dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-dialogs-'));
  // The SDK passes only a minimal environment to the child; a CI machine's browser choice must reach it.
  const chosen = process.env['CHROME_MCP_CHROMIUM'];
  const transport = new StdioClientTransport({
    command: process.execPath,
    // Every opt-in tool listed: the scenarios run a batch.
    args: [
      CLI,
      '--headless',
      '--browser',
      'fallback',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      ...ALL_CAPS,
      ...TEST_POLICY_FLAGS,
    ],
    env: chosen ? { CHROME_MCP_CHROMIUM: chosen } : {},
    stderr: 'ignore',
  });
  client = new Client({ name: 'e2e-dialogs', version: '1' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await fixtures?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('dialogs in the launched browser', () => {
  dialogScenarios(
    () => client,
    () => fixtures,
  );
});

// The built `chrome-mcp` is a bundle: copied alone beside its package.json, with no sources, no other dist/ file and no
// node_modules, it still lists its tools over real stdio and serves the calls that load its lazy parts (the page
// engine, and the Markdown reader's CommonJS dependencies).
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG } from '../../shared/tools/catalog.js';
import type { ToolDefinition } from '../../shared/tools/define.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { TEST_POLICY_FLAGS } from '../support/test-policy.js';
import { textOf } from '../support/tool-result.js';
import { removeDir } from '../support/remove-dir.js';

// Widened: the catalog's own type is a union of the tools' literal types, and only some of them name a cap.
const LISTED: readonly ToolDefinition[] = CATALOG;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HELPER = 'dist/electron/helper';
const chosenBrowser = process.env['CHROME_MCP_CHROMIUM'];
const childEnv: Record<string, string> = chosenBrowser ? { CHROME_MCP_CHROMIUM: chosenBrowser } : {};

let fixtures: FixtureServer;
let alone: string;
let client: Client | undefined;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  // The package folder the CLI finds itself in (its version and paths come from package.json), holding only the
  // command and its chunks.
  alone = mkdtempSync(join(tmpdir(), 'chrome-mcp-bundle-'));
  cpSync(join(ROOT, 'package.json'), join(alone, 'package.json'));
  cpSync(join(ROOT, HELPER, 'cli.js'), join(alone, HELPER, 'cli.js'));
  cpSync(join(ROOT, HELPER, 'chunks'), join(alone, HELPER, 'chunks'), { recursive: true });
});

afterAll(async () => {
  await client?.close();
  await fixtures?.close();
  removeDir(alone);
});

describe('the bundled CLI', () => {
  it('lists the tools and reads a page as Markdown from its own files alone', async () => {
    const cli = join(alone, HELPER, 'cli.js');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, '--headless', '--port', '0', '--data-dir', join(alone, 'data'), ...TEST_POLICY_FLAGS],
      env: childEnv,
      stderr: 'pipe',
    });
    const stderr: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    client = new Client({ name: 'bundle', version: '1' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(LISTED.filter((tool) => !tool.cap).map((tool) => tool.name));

    const loaded = await client.callTool({ name: 'navigate', arguments: { url: fixtures.url('read-article.html') } });
    expect(loaded.isError, `${textOf(loaded)}\n${stderr.join('')}`).toBeFalsy();
    const markdown = await client.callTool({ name: 'read_as_markdown', arguments: {} });
    expect(markdown.isError, `${textOf(markdown)}\n${stderr.join('')}`).toBeFalsy();
    expect(textOf(markdown).startsWith('# Gardening in small spaces\n')).toBe(true);
  });
});

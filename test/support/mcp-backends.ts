// The built `chrome-mcp` on stdio behind a real MCP client, in either backend: the browser it launches (fallback), or
// the person's Chromium with the real extension paired through the native host (extension). One shape for both, so a
// test file runs the same calls on each; every opt-in tool is listed, since these runs cover the whole catalog.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ALL_CAPS } from './all-caps.js';
import type { ExtensionBrowser } from './extension-browser.js';
import { startLinkedCore } from './linked-core.js';
import { dataOf, textOf, type CallResult } from './tool-result.js';
import { removeDir } from './remove-dir.js';

const CLI = fileURLToPath(new URL('../../dist/electron/helper/cli.js', import.meta.url));

export type Backend = 'fallback' | 'extension';
export const BACKENDS: readonly Backend[] = ['fallback', 'extension'];

export interface McpBackend {
  client: Client;
  /** chrome-mcp's data dir (control.json, uploads, downloads). */
  dataDir: string;
  /** The person's Chromium (extension backend only): what the person opens there is theirs. */
  browser?: ExtensionBrowser;
  /** Calls a tool and answers its text; a tool error throws with its text. */
  call(name: string, args?: Record<string, unknown>): Promise<string>;
  /** Calls a tool and answers the whole result, error or not. */
  result(name: string, args?: Record<string, unknown>): Promise<CallResult>;
  close(): Promise<void>;
}

/** `flags`: chrome-mcp's policy flags (computed after the test's servers started). */
export async function startMcpBackend(backend: Backend, flags: readonly string[]): Promise<McpBackend> {
  const started = backend === 'extension' ? await linked(flags) : await fallback(flags);
  const result = (name: string, args: Record<string, unknown> = {}) =>
    started.client.callTool({ name, arguments: args });
  return {
    ...started,
    result,
    async call(name, args = {}) {
      const answer = await result(name, args);
      const text = textOf(answer);
      if (answer.isError) throw new Error(`${name} failed: ${text}`);
      return text;
    },
  };
}

export interface McpRun {
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean; data: unknown }>;
  close(): Promise<void>;
}

export interface PolicyRule {
  site: string;
  level: 'blocked' | 'read' | 'act' | 'trusted';
}

/** Starts chrome-mcp on `backend` under exactly these rules (every other site blocked), through a policy file. */
export async function startMcp(backend: Backend, rules: PolicyRule[]): Promise<McpRun> {
  const policyDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-policy-'));
  const policy = join(policyDir, 'policy.json');
  writeFileSync(policy, JSON.stringify({ version: 1, rules, default: 'blocked', downloads: false }));
  const started = await startMcpBackend(backend, ['--policy', policy]);
  return {
    async call(name, args = {}) {
      const result = await started.result(name, args);
      return { text: textOf(result), isError: result.isError === true, data: dataOf(result) };
    },
    async close() {
      await started.close();
      removeDir(policyDir);
    },
  };
}

async function linked(flags: readonly string[]) {
  const core = await startLinkedCore(flags);
  return { client: core.client, browser: core.browser, dataDir: core.dataDir, close: core.close };
}

async function fallback(flags: readonly string[]) {
  const dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-e2e-'));
  // The SDK passes only a minimal environment to the child; a CI machine's browser choice must reach it.
  const chosen = process.env['CHROME_MCP_CHROMIUM'];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--headless', '--browser', 'fallback', '--port', '0', '--data-dir', dataDir, ...ALL_CAPS, ...flags],
    env: chosen ? { CHROME_MCP_CHROMIUM: chosen } : {},
    stderr: 'ignore',
  });
  const client = new Client({ name: 'e2e-fallback', version: '1' });
  await client.connect(transport);
  return {
    client,
    dataDir,
    async close() {
      await client.close();
      // The browser it launched may still be writing its profile as it exits (a site's service worker storage, on a
      // loaded box, outlasted 1 s of retries).
      removeDir(dataDir);
    },
  };
}

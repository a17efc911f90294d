// The built `chrome-mcp` on stdio with a real MCP client, over either backend: the browser it launches (fallback) or
// the person's Chromium through the real extension. Tests that must hold in both run once per backend with this.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI } from '../pairing/support/cli.js';
import { startLinkedCore } from './linked-core.js';
import { textOf } from './tool-result.js';

export type Backend = 'fallback' | 'extension';
export const BACKENDS: readonly Backend[] = ['fallback', 'extension'];

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
  const flags = ['--policy', policy];
  let client: Client;
  let stop: () => Promise<void>;
  if (backend === 'extension') {
    const core = await startLinkedCore(flags);
    client = core.client;
    stop = () => core.close();
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-fallback-'));
    const chosen = process.env['CHROME_MCP_CHROMIUM'];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--headless', '--browser', 'fallback', '--port', '0', '--data-dir', dataDir, ...flags],
      env: chosen ? { CHROME_MCP_CHROMIUM: chosen } : {},
      stderr: 'ignore',
    });
    client = new Client({ name: 'e2e-fallback', version: '1' });
    await client.connect(transport);
    stop = async () => {
      await client.close();
      // The browser may still be writing its profile as it quits.
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    };
  }
  return {
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args });
      return { text: textOf(result), isError: result.isError === true, data: result.structuredContent };
    },
    async close() {
      await stop();
      rmSync(policyDir, { recursive: true, force: true });
    },
  };
}

// The built chrome-mcp on stdio behind a real MCP client, as the bench drives it: trusted on the fixture server's port.
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { textOf, type CallResult } from '../../test/support/tool-result.js';
import { testServerHosts } from '../../test/support/test-policy.js';

export const CLI = fileURLToPath(new URL('../../dist/electron/helper/cli.js', import.meta.url));

/**
 * The arguments that start `cli` headless on `dataDir`. The bench pages are served from loopback; the run trusts that
 * server, by its port (a bare local host grants nothing), as a person would trust their own dev server.
 */
export function cliArgs(cli: string, dataDir: string, flags: string[] = []): string[] {
  return [cli, '--headless', '--port', '0', '--data-dir', dataDir, '--trust', testServerHosts().join(','), ...flags];
}

/** How to start an MCP server on stdio: the command, and where and with what environment it runs. */
export interface SpawnSpec {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
}

/** An SDK client connected over stdio to the server `spawn` starts (its stderr dropped), closed again if that fails. */
export async function connectOver(spawn: SpawnSpec, name = 'bench'): Promise<Client> {
  const client = new Client({ name, version: '1' });
  try {
    await client.connect(new StdioClientTransport({ ...spawn, stderr: 'ignore' }));
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return client;
}

/** `cli`: another build's entry point (an A/B of two builds, ab-builds.ts); this tree's by default. */
export async function connect(
  dataDir: string,
  flags: string[] = [],
  env?: NodeJS.ProcessEnv,
  cli = CLI,
): Promise<{ client: Client; startMs: number; listBytes: number }> {
  const start = performance.now();
  const client = await connectOver({
    command: process.execPath,
    args: cliArgs(cli, dataDir, flags),
    ...(env ? { env: env as Record<string, string> } : {}),
  });
  const list = await client.listTools();
  const startMs = performance.now() - start;
  return { client, startMs, listBytes: Buffer.byteLength(JSON.stringify(list)) };
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result;
}

// `chrome-mcp relay`: what an MCP client runs to share one core with other clients, as its own session; it starts
// `chrome-mcp serve` in the background when no core is running.
import { spawn } from 'node:child_process';
import { runRelay } from '../relay.js';
import { log } from '../../core/log.js';
import { coreConfig } from './core-flags.js';
import { BUILT_CLI } from '../../core/package-root.js';

export const usage = `Usage: chrome-mcp relay [options]

Connects the MCP client that runs it to the chrome-mcp core of the data dir, as a session of its own, so several
clients can drive the browser through one core. When no core is running it starts one in the background
(\`chrome-mcp serve\` with these options) and waits for it. Configure your MCP client to run this instead of
\`chrome-mcp\`.

Options: the same as chrome-mcp's own (chrome-mcp --help); they apply when this relay starts the core.
`;

export async function run(argv: string[], cliUsage: string): Promise<number> {
  const config = coreConfig(argv, cliUsage);
  if (typeof config === 'number') return config;
  const { dataDir } = config;
  // The data dir as this relay resolved it, last so it wins over a relative one: the core must serve the folder the
  // relay then looks in.
  const startCore = (): void => startServe([...argv, '--data-dir', dataDir]);
  return runRelay({ dataDir, startCore, input: process.stdin, output: process.stdout, log, caps: config.caps });
}

/** Detached, with no stdio of ours: the core outlives this client, and must not hold the client's pipes open. */
function startServe(args: string[]): void {
  const child = spawn(process.execPath, [BUILT_CLI, 'serve', ...args], {
    detached: true,
    stdio: 'ignore',
    windowsHide: true,
  });
  child.once('error', (error) => log(`could not start \`chrome-mcp serve\`: ${error.message}`));
  child.unref();
}

// Temp folders for the client-config tests (the pairing tests' own), and the built `chrome-mcp` run as a real process,
// synchronously, with text output.
import { spawnSync } from 'node:child_process';
import { CLI } from '../pairing/support/cli.js';

export { CLI, tempDirs } from '../pairing/support/cli.js';

export function runCli(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, timeout: 20_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

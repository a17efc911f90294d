// Temp folders for the client-config tests, and the built `chrome-mcp` run as a real process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/electron/helper/cli.js', import.meta.url));

export function tempDirs(prefix: string) {
  const made: string[] = [];
  return {
    make(): string {
      const dir = mkdtempSync(join(tmpdir(), `chrome-mcp-${prefix}-`));
      made.push(dir);
      return dir;
    },
    cleanup(): void {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, timeout: 20_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

// Temp folders for the client-config tests (the pairing tests' own), the built `chrome-mcp` run as a real process,
// synchronously, with text output, and a temp home whose PATH holds a fake `claude` (or none).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { defaultConfigPath } from '../../electron/core/clients/client-paths.js';
import { CLI } from '../pairing/support/cli.js';

export { CLI, tempDirs } from '../pairing/support/cli.js';

export function runCli(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, timeout: 20_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const FAKE_CLAUDE = fileURLToPath(new URL('./fake-claude.mjs', import.meta.url));

export interface ClaudeHome {
  /** The environment to run with: PATH is only the fake `claude`'s folder; Claude Code's config and HOME are in `root`. */
  env: NodeJS.ProcessEnv;
  /** Claude Code's user config in this home. */
  config: string;
  /** Each argv the fake `claude` was run with, in order. */
  calls(): string[][];
}

export interface FakeClaude {
  /** No `claude` on PATH at all. */
  missing?: boolean;
  /** Exit 1 saying this. */
  fail?: string;
  /** Fail only this subcommand. */
  failOnly?: 'add-json' | 'remove';
  /** Never finish. */
  hang?: boolean;
  /** Put it in this folder under the home instead of the one on PATH (as Claude Code's installer does). */
  installedIn?: string;
}

/** A home in `root` for Claude Code, checked to be where its config resolves before any test writes there. */
export function claudeHome(root: string, fake: FakeClaude = {}): ClaudeHome {
  const bin = join(root, 'bin');
  const log = join(root, 'claude-calls.jsonl');
  mkdirSync(bin);
  if (!fake.missing) {
    const installed = fake.installedIn ? join(root, fake.installedIn) : bin;
    mkdirSync(installed, { recursive: true });
    // exec, so a timeout's signal reaches the fake itself and nothing is left holding its output open.
    writeFileSync(join(installed, 'claude'), `#!/bin/sh\nexec '${process.execPath}' '${FAKE_CLAUDE}' "$@"\n`);
    chmodSync(join(installed, 'claude'), 0o755);
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: bin,
    HOME: root,
    USERPROFILE: root,
    CLAUDE_CONFIG_DIR: root,
    FAKE_CLAUDE_LOG: log,
  };
  if (fake.fail) env['FAKE_CLAUDE_FAIL'] = fake.fail;
  if (fake.failOnly) env['FAKE_CLAUDE_FAIL_ONLY'] = fake.failOnly;
  if (fake.hang) env['FAKE_CLAUDE_HANG'] = '1';
  const config = join(root, '.claude.json');
  // Never the person's own ~/.claude.json: in this process (registerClient with `env`) and in a child run with it.
  expect(defaultConfigPath('claude-code', process.platform, env, homedir())).toBe(config);
  expect(defaultConfigPath('claude-code', process.platform, env, root)).toBe(config);
  const calls = () =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as string[])
      : [];
  return { env, config, calls };
}

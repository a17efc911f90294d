// Runs the built `chrome-mcp` as a real process and captures both streams whole, for the pairing command tests.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openKeychain } from '../../../electron/core/pairing/keychain.js';
import { SecretStore, type StoredSecret } from '../../../electron/core/pairing/secret-store.js';
import { removeDir } from '../../support/remove-dir.js';

export const CLI = fileURLToPath(new URL('../../../dist/electron/helper/cli.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export interface CliOptions {
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed. */
  input?: Buffer;
  timeoutMs?: number;
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin.end(options.input ?? Buffer.alloc(0));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString('utf8') });
    });
  });
}

/** The environment without a session bus or display: keytar then finds no keychain, so the file store is used. */
export function envWithoutKeychain(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const name of ['DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', 'WAYLAND_DISPLAY']) delete env[name];
  return env;
}

/** The data dir's pairing secret in its 0600 file, made if missing: the store a core with no keychain keeps. */
export function fileSecret(dataDir: string): Promise<StoredSecret> {
  return new SecretStore(dataDir, () => Promise.resolve(undefined)).ensure();
}

/** Temp dirs for one test file; `cleanup` removes them and any keychain entry a store made for them. */
export function tempDirs(prefix: string) {
  const made: string[] = [];
  return {
    make(): string {
      const dir = mkdtempSync(join(tmpdir(), `chrome-mcp-${prefix}-`));
      made.push(dir);
      return dir;
    },
    /** A data dir that does not exist yet, inside a fresh temp dir: the code under test must create it. */
    dataDir(): string {
      return join(this.make(), 'data');
    },
    async cleanup(): Promise<void> {
      for (const dir of made.splice(0)) {
        const dataDir = join(dir, 'data');
        if (new SecretStore(dataDir).location() === 'keychain')
          await (await openKeychain())?.remove(dataDir).catch(() => undefined);
        removeDir(dir);
      }
    },
  };
}

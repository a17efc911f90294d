// `--mcp-helper`: what an MCP client runs (through the launcher in the data dir). The same binary as the tray app, as a
// plain Electron main process that opens no window and no tray: it relays stdio to the app's core socket, starting the
// app (itself, without the flag, detached) when no core answers. Running as the app itself rather than as Node means it
// works with the RunAsNode fuse off, and nothing here ever sets ELECTRON_RUN_AS_NODE.
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { runRelay } from '../helper/relay.js';
import type { Log } from '../core/log.js';

export const HELPER_FLAG = '--mcp-helper';
/** Marks a launch the helper made: the app starts quietly in the tray instead of showing its panel. */
export const BACKGROUND_FLAG = '--background';
/** An app started from cold needs longer than a Node core to listen (Chromium starts first). */
export const HELPER_WAIT_MS = 30_000;

export function isHelperMode(argv: readonly string[]): boolean {
  return argv.includes(HELPER_FLAG);
}

/**
 * The command that starts this app: a packaged app is its executable; an unpackaged one (`electron .`, Forge's start)
 * is Electron plus the app folder, which must be named or Electron opens its default app.
 */
export function appCommand(execPath: string, appPath: string, isPackaged: boolean): [string, ...string[]] {
  return isPackaged ? [execPath] : [execPath, appPath];
}

/** The environment a relaunched app gets: ours, minus anything that would make Electron run as plain Node. */
export function appEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ELECTRON_RUN_AS_NODE: _node, ...rest } = env;
  return rest;
}

/** Starts the app in the background, detached from the helper (it outlives this MCP session and serves the next ones). */
export function launchApp(command: readonly [string, ...string[]], env: NodeJS.ProcessEnv = process.env): void {
  const [program, ...args] = command;
  const child = spawn(program, [...args, BACKGROUND_FLAG], {
    detached: true,
    stdio: 'ignore',
    env: appEnvironment(env),
    windowsHide: true,
  });
  child.on('error', () => undefined);
  child.unref();
}

export interface HelperModeOptions {
  dataDir: string;
  /** How to start the app (see appCommand). */
  command: readonly [string, ...string[]];
  input: Readable;
  output: Writable;
  log: Log;
  /** Replaces launchApp (tests). */
  launch?: (command: readonly [string, ...string[]]) => void;
}

/** Relays until the client or the core ends the session; resolves with the exit code. */
export function runHelper({
  dataDir,
  command,
  input,
  output,
  log,
  launch = launchApp,
}: HelperModeOptions): Promise<number> {
  return runRelay({ dataDir, startCore: () => launch(command), input, output, log, waitMs: HELPER_WAIT_MS });
}

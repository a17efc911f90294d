// The one shell of every process that runs a core (`chrome-mcp` on stdio, `chrome-mcp serve`, the tray app): claim the
// core socket when the process hosts sessions, start the core, add the process's own parts, and on the first stop
// close them in order (its parts, the socket's sessions, the core) within a deadline, then exit.
import { PolicyFormatError } from '../../shared/policy/format-error.js';
import type { Config } from './config.js';
import { type Core, startCore } from './core.js';
import { type CoreClaim, type CoreHost, claimCoreHost } from './host/host-core.js';
import type { Log } from './log.js';

/** Ends the process once: `code` is the exit code asked for (1 for a failure). */
export type Stop = (reason: string, code?: number) => void;

export interface CoreProcessOptions {
  config: Config;
  log: Log;
  /** Starts the core (the app's brings Electron's Chromium); default startCore(config, log). */
  start?: () => Promise<Core>;
  /** Claims the core socket before the core starts (one that is going to be refused must not take the bridge port
   * from the core serving) and serves MCP sessions on it: `serve` and the app. */
  hostSessions: boolean;
  /** What stops the process, each handed `stop`: signals, stdin's end, the app's Quit. */
  stopOn: ReadonlyArray<(stop: Stop) => void>;
  /** A close that hangs past this must not keep the process alive: it exits with `deadlineCode(code)` anyway. */
  deadlineMs: number;
  deadlineCode?: (code: number) => number;
  exit: (code: number) => void;
}

export interface CoreProcess {
  core: Core;
  /** The process's own parts on the core (the stdio session; the tray and panel): closed first, before the sessions. */
  closeFirst(close: () => void | Promise<void>): void;
  /** Closed once the core is: the stdio session, so the browser's close (what a client waits on) goes first. */
  closeLast(close: () => void | Promise<void>): void;
}

/** The core, serving, with the stops wired; start-up errors (CoreBusyError, PolicyFormatError) are thrown. */
export async function runCoreProcess(options: CoreProcessOptions): Promise<CoreProcess> {
  const { config, log } = options;
  const claim: CoreClaim | undefined = options.hostSessions
    ? await claimCoreHost({ dataDir: config.dataDir, log })
    : undefined;
  const core = await (options.start ?? (() => startCore(config, log)))().catch(async (error: unknown) => {
    await claim?.release();
    throw error;
  });
  let host: CoreHost | undefined;
  const first: Array<() => void | Promise<void>> = [];
  const last: Array<() => void | Promise<void>> = [];
  const closeAll = async (parts: Array<() => void | Promise<void>>): Promise<void> => {
    for (const close of parts)
      await Promise.resolve(close()).catch((error: unknown) => log(`closing failed: ${String(error)}`));
  };
  let stopping = false;
  const stop: Stop = (reason, code = 0) => {
    if (stopping) return;
    stopping = true;
    log(`shutting down: ${reason}`);
    setTimeout(() => {
      log('the core did not close in time; exiting anyway');
      options.exit(options.deadlineCode ? options.deadlineCode(code) : code || 1);
    }, options.deadlineMs).unref();
    void (async () => {
      await closeAll(first);
      // The sessions before the core: their clients are let go at once, even when the core then hangs.
      await host?.close().catch(() => undefined);
      await core.close().catch((error: unknown) => log(`closing the core failed: ${String(error)}`));
      await closeAll(last);
      options.exit(code);
    })();
  };
  try {
    host = claim?.serve(core);
  } catch (error) {
    await core.close().catch(() => undefined);
    throw error;
  }
  for (const trigger of options.stopOn) trigger(stop);
  return { core, closeFirst: (close) => void first.push(close), closeLast: (close) => void last.push(close) };
}

/** The Node processes' stops: SIGINT (Ctrl-C), SIGTERM, SIGHUP, and an exception nothing caught. */
export function onSignals(log: Log): (stop: Stop) => void {
  return (stop) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => stop(signal));
    process.once('uncaughtException', (error) => {
      log(`uncaught: ${error.stack ?? String(error)}`);
      stop('uncaught exception', 1);
    });
  };
}

/**
 * Exit code 2 once a policy file with a mistake has been named on stderr (`command` prefixes the line): that is the
 * person's to fix, and nothing starts with rules they did not mean. Any other error is thrown on.
 */
export function refuseBadPolicy(error: unknown, config: Config, command: string): 2 {
  if (!(error instanceof PolicyFormatError)) throw error;
  process.stderr.write(`${command}: ${config.policyFile}: ${error.message}\n`);
  return 2;
}

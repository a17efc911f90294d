// `chrome-mcp serve`: one long-lived core that every MCP client of this data dir shares, each through
// `chrome-mcp relay` as its own session; it speaks no MCP on its own stdio and logs to stderr.
import { startCoreOrRefuse } from '../../core/core-process.js';
import { claimCoreHost } from '../../core/host/host-core.js';
import { log, routeConsoleToLog } from '../../core/log.js';
import { coreConfig } from './core-flags.js';

export const usage = `Usage: chrome-mcp serve [options]

Runs one core that several MCP clients share, each in its own session: configure the clients to run
\`chrome-mcp relay\` (with the same --data-dir) instead of \`chrome-mcp\`. A relay starts a core by itself
when none is running; run this to keep one in the foreground and watch its log. Ctrl-C stops it and the
browser it launched.

Options: the same as chrome-mcp's own (chrome-mcp --help).
`;

// No client is waiting on this exit, but a hung browser close must not leave a core that looks alive.
const CLOSE_DEADLINE_MS = 5_000;

export async function run(argv: string[], cliUsage: string): Promise<number> {
  const config = coreConfig(argv, cliUsage);
  if (typeof config === 'number') return config;
  routeConsoleToLog();

  // The socket first: a core that is going to be refused must not start, taking the bridge port from the one serving.
  const claim = await claimCoreHost({ dataDir: config.dataDir, log });
  const core = await startCoreOrRefuse(config, 'chrome-mcp serve').catch(async (error: unknown) => {
    await claim.release();
    throw error;
  });
  if (core === 2) {
    await claim.release();
    return 2;
  }
  const host = claim.serve(core);
  log(`ready: ${config.headless ? 'headless' : 'headed'}, data in ${config.dataDir}, clients connect with \`chrome-mcp relay\``);

  const code = await new Promise<number>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => {
        log(`shutting down: ${signal}`);
        resolve(0);
      });
    }
    process.once('uncaughtException', (error) => {
      log(`shutting down: uncaught ${error.stack ?? String(error)}`);
      resolve(1);
    });
  });
  setTimeout(() => {
    log('the browser did not close in time; exiting anyway');
    process.exit(code || 1);
  }, CLOSE_DEADLINE_MS).unref();
  await host.close();
  await core.close().catch((error: unknown) => log(`closing the browser failed: ${String(error)}`));
  return code;
}

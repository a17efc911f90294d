// Serves MCP on stdio from an in-process core (extension bridge + fallback browser), and closes what it opened on the way out.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Config } from './config.js';
import { startCoreOrRefuse } from './core-process.js';
import { log, routeConsoleToLog } from './log.js';
import { buildServer, serverDeps } from './mcp/build-server.js';

// The client gives a server about 2 s after closing stdin before it kills it; a hung browser close must not
// keep us past that, and the browser quits by itself once our end of its CDP pipe closes with this process.
const EXIT_DEADLINE_MS = 1_500;

export async function startStdio(config: Config): Promise<void> {
  routeConsoleToLog();
  const core = await startCoreOrRefuse(config, 'chrome-mcp');
  if (core === 2) process.exit(2);
  // One session for the process's life: stdio has one client.
  const server = buildServer(serverDeps(core, log), core.agents.open());

  let stopping = false;
  const stop = async (reason: string, code = 0): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log(`shutting down: ${reason}`);
    setTimeout(() => {
      log('browser did not close in time; exiting anyway');
      process.exit(code || 1);
    }, EXIT_DEADLINE_MS).unref();
    await core.close().catch((error: unknown) => log(`closing the browser failed: ${String(error)}`));
    await server.close().catch(() => undefined);
    process.exit(code);
  };

  process.stdin.once('end', () => void stop('stdin closed'));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void stop(signal));
  process.once('uncaughtException', (error) => {
    log(`uncaught: ${error.stack ?? String(error)}`);
    void stop('uncaught exception', 1);
  });

  const transport = new StdioServerTransport();
  transport.onerror = (error) => log(`stdio: ${error.message}`);
  await server.connect(transport);
  log(`ready: ${config.headless ? 'headless' : 'headed'}, data in ${config.dataDir}`);
}

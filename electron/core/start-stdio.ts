// Serves MCP on stdio from an in-process core (extension bridge + fallback browser), and closes what it opened on the way out.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Config } from './config.js';
import { onSignals, refuseBadPolicy, runCoreProcess } from './core-process.js';
import { log, routeConsoleToLog } from './log.js';
import { buildServer, serverDeps } from './mcp/build-server.js';

// The client gives a server about 2 s after closing stdin before it kills it; a hung browser close must not
// keep us past that, and the browser quits by itself once our end of its CDP pipe closes with this process.
const EXIT_DEADLINE_MS = 1_500;

export async function startStdio(config: Config): Promise<void> {
  routeConsoleToLog();
  const running = await runCoreProcess({
    config,
    log,
    hostSessions: false,
    stopOn: [onSignals(log), (stop) => process.stdin.once('end', () => stop('stdin closed'))],
    deadlineMs: EXIT_DEADLINE_MS,
    exit: (code) => process.exit(code),
  }).catch((error: unknown) => process.exit(refuseBadPolicy(error, config, 'chrome-mcp')));
  // One session for the process's life: stdio has one client.
  const server = buildServer(serverDeps(running.core, log), running.core.agents.open());
  running.closeLast(() => server.close().catch(() => undefined));
  const transport = new StdioServerTransport();
  transport.onerror = (error) => log(`stdio: ${error.message}`);
  await server.connect(transport);
  log(`ready: ${config.headless ? 'headless' : 'headed'}, data in ${config.dataDir}`);
}

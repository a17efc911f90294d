// `chrome-mcp serve`: one long-lived core that every MCP client of this data dir shares, each through
// `chrome-mcp relay` as its own session; it speaks no MCP on its own stdio and logs to stderr.
import { onSignals, refuseBadPolicy, runCoreProcess } from '../../core/core-process.js';
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
  // The shell's exit, in time or at the deadline, is this command's exit code: the CLI then ends the process.
  let exited: (code: number) => void = () => undefined;
  const code = new Promise<number>((resolve) => (exited = resolve));
  try {
    await runCoreProcess({
      config,
      log,
      hostSessions: true,
      stopOn: [onSignals(log)],
      deadlineMs: CLOSE_DEADLINE_MS,
      exit: (status) => exited(status),
    });
  } catch (error) {
    return refuseBadPolicy(error, config, 'chrome-mcp serve');
  }
  log(
    `ready: ${config.headless ? 'headless' : 'headed'}, data in ${config.dataDir}, clients connect with \`chrome-mcp relay\``,
  );
  return code;
}

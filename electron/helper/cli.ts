#!/usr/bin/env node
// The `chrome-mcp` command: a named subcommand (pairing, install, doctor), or by default MCP on stdio from an
// in-process core (the headless install).
import { cliUsage, isCommand, runCommand } from './cli/commands.js';
import { parseCli } from '../core/config.js';
import { log } from '../core/log.js';

const [first, ...rest] = process.argv.slice(2);
if (isCommand(first)) {
  const code = await runCommand(first, rest);
  // Exit once stdout has drained: a keychain call left hanging past its deadline must not keep a finished command alive.
  process.stdout.write('', () => process.exit(code));
} else {
  const outcome = parseCli(process.argv.slice(2), process.env, process.platform, cliUsage());
  if (outcome.kind === 'exit') {
    if (outcome.stdout) process.stdout.write(outcome.stdout);
    if (outcome.stderr) process.stderr.write(outcome.stderr);
    process.exitCode = outcome.code;
  } else {
    // Loaded only here: the core and the MCP server are most of what this package loads, and a subcommand needs neither.
    const { startStdio } = await import('../core/start-stdio.js');
    await startStdio(outcome.config).catch((error: unknown) => {
      log(`could not start: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
  }
}

#!/usr/bin/env node
// The `chrome-mcp` command: read flags, then serve MCP on stdio from an in-process core (the headless install).
import { parseCli } from '../core/config.js';
import { log } from '../core/log.js';
import { startStdio } from '../core/start-stdio.js';

const outcome = parseCli(process.argv.slice(2));
if (outcome.kind === 'exit') {
  if (outcome.stdout) process.stdout.write(outcome.stdout);
  if (outcome.stderr) process.stderr.write(outcome.stderr);
  process.exitCode = outcome.code;
} else {
  await startStdio(outcome.config).catch((error: unknown) => {
    log(`could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}

// What every process that runs a core does the same way (`chrome-mcp` on stdio, `chrome-mcp serve`): printing only
// through the redacting logger, and refusing to start on a policy file with a mistake.
import { formatWithOptions } from 'node:util';
import { PolicyFormatError } from '../../shared/policy/format-error.js';
import type { Config } from './config.js';
import { type Core, startCore } from './core.js';
import { log } from './log.js';

/**
 * Sends whatever a dependency prints through our redacting logger to stderr: stdout may be the protocol channel, where a
 * stray console.log would corrupt it.
 */
export function routeConsoleToLog(): void {
  console.log = console.info = console.debug = console.warn = console.error = (...parts: unknown[]) => log(formatWithOptions({ colors: false }, ...parts));
}

/**
 * The core, or exit code 2 once a policy file with a mistake has been named on stderr (`command` prefixes the line):
 * that is the person's to fix, and nothing starts with rules they did not mean.
 */
export async function startCoreOrRefuse(config: Config, command: string): Promise<Core | 2> {
  try {
    return await startCore(config, log);
  } catch (error) {
    if (!(error instanceof PolicyFormatError)) throw error;
    process.stderr.write(`${command}: ${config.policyFile}: ${error.message}\n`);
    return 2;
  }
}

// How every process that runs a core (`chrome-mcp` on stdio, `chrome-mcp serve`) starts it: refusing to, with the place
// to fix named, on a policy file with a mistake.
import { PolicyFormatError } from '../../shared/policy/format-error.js';
import type { Config } from './config.js';
import { type Core, startCore } from './core.js';
import { log } from './log.js';

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

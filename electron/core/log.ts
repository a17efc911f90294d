// The core's only logger: one line per message on stderr, because stdout carries nothing but MCP; every line redacted.
import { formatWithOptions } from 'node:util';
import { redactText } from '../../shared/redact/text.js';

export type Log = (line: string) => void;

export const log: Log = (line) => {
  process.stderr.write(`[chrome-mcp] ${redactText(line)}\n`);
};

/**
 * Sends whatever a dependency prints through this logger to stderr: stdout may be the protocol channel (MCP, native
 * messaging), where a stray console.log would corrupt it.
 */
export function routeConsoleToLog(): void {
  console.log =
    console.info =
    console.debug =
    console.warn =
    console.error =
      (...parts: unknown[]) => log(formatWithOptions({ colors: false }, ...parts));
}

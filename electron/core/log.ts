// The core's only logger: one line per message on stderr, because stdout carries nothing but MCP; every line redacted.
import { redactText } from '../../shared/redact/text.js';

export type Log = (line: string) => void;

export const log: Log = (line) => {
  process.stderr.write(`[chrome-mcp] ${redactText(line)}\n`);
};

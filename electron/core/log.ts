// The core's only logger: one line per message on stderr, because stdout carries nothing but MCP.

export type Log = (line: string) => void;

export const log: Log = (line) => {
  process.stderr.write(`[chrome-mcp] ${line}\n`);
};

// Tiny scripts that run a fixed command line plus the caller's own arguments: what a browser manifest or an MCP
// client config can name when it cannot pass arguments, or when the program behind it may move.

/** Quotes one word of the command line for the script's shell. */
export type Quote = (word: string) => string;

/** POSIX shell: single quotes keep every character literal; a quote inside becomes '\''. */
function shQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** cmd.exe: a path cannot hold a double quote, but % would expand even inside quotes. */
function cmdQuote(text: string): string {
  return `"${text.replaceAll('%', '%%')}"`;
}

/**
 * A .cmd on Windows, else a `#!/bin/sh` script that execs (so signals and stdio reach the program itself). `commandLine`
 * builds the line with the platform's quoting; the caller's arguments follow it.
 */
export function launchScript(platform: NodeJS.Platform, note: string, commandLine: (quote: Quote) => string): string {
  if (platform === 'win32') return `@echo off\r\nrem ${note}\r\n${commandLine(cmdQuote)} %*\r\n`;
  return `#!/bin/sh\n# ${note}\nexec ${commandLine(shQuote)} "$@"\n`;
}

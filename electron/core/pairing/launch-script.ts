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

/** The command line of a script as launchScript writes it, and one word of it: quoted (group 1) or bare (group 2). */
const READERS = {
  sh: {
    line: /^#!\/bin\/sh\n# [^\n]*\nexec (.+) "\$@"\n$/,
    word: /'((?:[^']|'\\'')*)'|([\w-]+)/y,
    unquote: (inner: string) => inner.replaceAll(`'\\''`, "'"),
  },
  cmd: {
    line: /^@echo off\r\nrem [^\r\n]*\r\n(.+) %\*\r\n$/,
    word: /"([^"]*)"|([\w-]+)/y,
    unquote: (inner: string) => inner.replaceAll('%%', '%'),
  },
};

/**
 * The words of a launch script's command line, read back (the inverse of the quoting above), or undefined when the text
 * has not that shape. Lenient on purpose: a caller that must be sure writes the script again from the words and
 * compares, so only what launchScript itself would write counts.
 */
export function launchScriptWords(platform: NodeJS.Platform, text: string): string[] | undefined {
  const reader = platform === 'win32' ? READERS.cmd : READERS.sh;
  const line = reader.line.exec(text)?.[1];
  if (line === undefined) return undefined;
  const words: string[] = [];
  for (let at = 0; at < line.length; at += 1) {
    reader.word.lastIndex = at;
    const match = reader.word.exec(line);
    if (!match) return undefined;
    words.push(match[1] === undefined ? match[2]! : reader.unquote(match[1]));
    at = reader.word.lastIndex;
    if (at < line.length && line[at] !== ' ') return undefined;
  }
  return words;
}

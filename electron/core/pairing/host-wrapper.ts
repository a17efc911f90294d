// The executable a host manifest names: a tiny script that runs `chrome-mcp native-host` with this data dir, because
// a manifest can name a program but not give it arguments.
import { posix, win32 } from 'node:path';

export interface HostWrapper {
  path: string;
  text: string;
}

/** POSIX shell: single quotes keep every character literal; a quote inside becomes '\''. */
function shQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** cmd.exe: a path cannot hold a double quote, but % would expand even inside quotes. */
function cmdQuote(text: string): string {
  return `"${text.replaceAll('%', '%%')}"`;
}

export function hostWrapper(options: { platform: NodeJS.Platform; dataDir: string; node: string; cli: string }): HostWrapper {
  const { platform, dataDir, node, cli } = options;
  if (platform === 'win32') {
    return {
      path: win32.join(dataDir, 'native-host', 'chrome-mcp-native-host.cmd'),
      text: `@echo off\r\nrem Written by chrome-mcp install-native-host: Chrome runs this as the com.chrome_mcp.bridge native-messaging host.\r\n${cmdQuote(node)} ${cmdQuote(cli)} native-host --data-dir ${cmdQuote(dataDir)} %*\r\n`,
    };
  }
  return {
    path: posix.join(dataDir, 'native-host', 'chrome-mcp-native-host'),
    text: `#!/bin/sh\n# Written by chrome-mcp install-native-host: Chrome runs this as the com.chrome_mcp.bridge native-messaging host.\nexec ${shQuote(node)} ${shQuote(cli)} native-host --data-dir ${shQuote(dataDir)} "$@"\n`,
  };
}

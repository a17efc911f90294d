// The executable a host manifest names: a tiny script that runs the host with this data dir, because a manifest can
// name a program but not give it arguments. The host is `chrome-mcp native-host` (node and the built CLI) or the app's
// own binary with --native-host (a packaged app has no node: its RunAsNode fuse is off).
import { posix, win32 } from 'node:path';
import { launchScript, launchScriptWords } from './launch-script.js';

/** A program and its own arguments; the wrapper adds --data-dir, and the browser's arguments follow. */
export type HostCommand = readonly [string, ...string[]];

/** The app binary's host mode (electron/main/launch.ts). Declared here so doctor can tell a wrapper the app wrote. */
export const NATIVE_HOST_FLAG = '--native-host';

/** What the wrapper runs: a command, or for the CLI its node and built cli.js (see hostCommand). */
export type HostProgram = { command: HostCommand } | { node: string; cli: string };

export interface HostWrapper {
  path: string;
  text: string;
}

/** The one place the CLI's host command is spelt out. */
export function hostCommand(program: HostProgram): HostCommand {
  return 'command' in program ? program.command : [program.node, program.cli, 'native-host'];
}

const NOTE =
  'Written by chrome-mcp install-native-host: Chrome runs this as the com.chrome_mcp.bridge native-messaging host.';

/** Letters, digits, - and _ mean the same to sh and cmd.exe bare: a subcommand or flag stays as it always read. */
const PLAIN_WORD = /^[\w-]+$/;

export function hostWrapper(options: HostProgram & { platform: NodeJS.Platform; dataDir: string }): HostWrapper {
  const { platform, dataDir } = options;
  const words = [...hostCommand(options), '--data-dir', dataDir];
  const text = launchScript(platform, NOTE, (quote) =>
    words.map((word) => (PLAIN_WORD.test(word) ? word : quote(word))).join(' '),
  );
  const path =
    platform === 'win32'
      ? win32.join(dataDir, 'native-host', 'chrome-mcp-native-host.cmd')
      : posix.join(dataDir, 'native-host', 'chrome-mcp-native-host');
  return { path, text };
}

/**
 * The command a wrapper runs, when `text` is exactly what hostWrapper writes for this data dir and some command;
 * undefined for anything else (an edit, another data dir, a script of someone else's).
 */
export function wrapperCommand(options: {
  platform: NodeJS.Platform;
  dataDir: string;
  text: string;
}): HostCommand | undefined {
  const words = launchScriptWords(options.platform, options.text);
  if (!words || words.length < 3 || words.at(-2) !== '--data-dir') return undefined;
  const [program, ...args] = words.slice(0, -2);
  const command: HostCommand = [program!, ...args];
  return hostWrapper({ platform: options.platform, dataDir: options.dataDir, command }).text === options.text
    ? command
    : undefined;
}

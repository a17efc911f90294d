// The executable a host manifest names: a tiny script that runs `chrome-mcp native-host` with this data dir, because
// a manifest can name a program but not give it arguments.
import { posix, win32 } from 'node:path';
import { launchScript } from './launch-script.js';

export interface HostWrapper {
  path: string;
  text: string;
}

export function hostWrapper(options: { platform: NodeJS.Platform; dataDir: string; node: string; cli: string }): HostWrapper {
  const { platform, dataDir, node, cli } = options;
  const note = 'Written by chrome-mcp install-native-host: Chrome runs this as the com.chrome_mcp.bridge native-messaging host.';
  const text = launchScript(platform, note, (quote) => `${quote(node)} ${quote(cli)} native-host --data-dir ${quote(dataDir)}`);
  const path = platform === 'win32' ? win32.join(dataDir, 'native-host', 'chrome-mcp-native-host.cmd') : posix.join(dataDir, 'native-host', 'chrome-mcp-native-host');
  return { path, text };
}

// The helper's stable path: a launcher in the data dir that MCP client configs name. The app rewrites it when it moves
// or updates, so no client config ever names an app bundle, a node binary or a checkout that can change.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { posix, win32 } from 'node:path';
import { launchScript } from '../pairing/launch-script.js';
import { ensurePrivateDir, writeFileAtomic } from '../pairing/private-files.js';

export interface HelperLauncher {
  path: string;
  text: string;
}

const NOTE =
  'Written by chrome-mcp: MCP clients run this to start the chrome-mcp helper. It is rewritten when chrome-mcp moves.';

/** The launcher's path and text for `command` (the program, then its own arguments); the client's arguments follow. */
export function helperLauncher(
  dataDir: string,
  command: readonly [string, ...string[]],
  platform: NodeJS.Platform,
): HelperLauncher {
  const text = launchScript(platform, NOTE, (quote) => command.map(quote).join(' '));
  const path =
    platform === 'win32'
      ? win32.join(dataDir, 'bin', 'chrome-mcp-helper.cmd')
      : posix.join(dataDir, 'bin', 'chrome-mcp-helper');
  return { path, text };
}

/** Already there with this text, and (on POSIX) still executable by this user alone. */
function current(launcher: HelperLauncher, platform: NodeJS.Platform): boolean {
  if (!existsSync(launcher.path) || readFileSync(launcher.path, 'utf8') !== launcher.text) return false;
  return platform === 'win32' || (statSync(launcher.path).mode & 0o777) === 0o700;
}

/** Writes the launcher (0700 in a 0700 folder) unless it is already current; returns its path for client configs. */
export function writeHelperLauncher(
  dataDir: string,
  command: readonly [string, ...string[]],
  platform: NodeJS.Platform = process.platform,
): string {
  const launcher = helperLauncher(dataDir, command, platform);
  if (!current(launcher, platform)) {
    ensurePrivateDir(dataDir);
    ensurePrivateDir((platform === 'win32' ? win32 : posix).dirname(launcher.path));
    writeFileAtomic(launcher.path, launcher.text, 0o700);
  }
  return launcher.path;
}

// The MCP clients install-client knows, and where each keeps its config on each OS: pure, so every OS is testable here.
import { type PlatformPath, posix, win32 } from 'node:path';

export const CLIENTS = {
  'claude-desktop': { label: 'Claude Desktop' },
  'claude-code': { label: 'Claude Code' },
  cursor: { label: 'Cursor' },
} as const satisfies Record<string, { label: string }>;

export type ClientName = keyof typeof CLIENTS;

export const CLIENT_NAMES = Object.keys(CLIENTS) as ClientName[];

export function isClientName(name: string): name is ClientName {
  return Object.hasOwn(CLIENTS, name);
}

/** An environment variable that names a folder, or undefined when it is unset, empty or relative (not to be trusted). */
function folderFromEnv(env: NodeJS.ProcessEnv, name: string, path: PlatformPath): string | undefined {
  const value = env[name];
  return value && path.isAbsolute(value) ? value : undefined;
}

/** The config file a client reads its MCP servers from (Claude Code: the user scope, top-level `mcpServers`). */
export function defaultConfigPath(
  client: ClientName,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  home: string,
): string {
  const path = platform === 'win32' ? win32 : posix;
  if (client === 'claude-code') {
    // Claude Code keeps .claude.json inside CLAUDE_CONFIG_DIR when that is set, else in the home folder.
    return path.join(folderFromEnv(env, 'CLAUDE_CONFIG_DIR', path) ?? home, '.claude.json');
  }
  if (client === 'cursor') return path.join(home, '.cursor', 'mcp.json');
  // Claude Desktop is an Electron app: its folder is Electron's appData, which on Linux follows XDG_CONFIG_HOME.
  const appData =
    platform === 'darwin'
      ? path.join(home, 'Library', 'Application Support')
      : platform === 'win32'
        ? (folderFromEnv(env, 'APPDATA', path) ?? path.join(home, 'AppData', 'Roaming'))
        : (folderFromEnv(env, 'XDG_CONFIG_HOME', path) ?? path.join(home, '.config'));
  return path.join(appData, 'Claude', 'claude_desktop_config.json');
}

// Where each MCP client keeps its config, on each OS, and which environment variables move it.
import { describe, expect, it } from 'vitest';
import { CLIENT_NAMES, defaultConfigPath } from '../../electron/core/clients/client-paths.js';

describe('defaultConfigPath', () => {
  it('knows three clients', () => {
    expect(CLIENT_NAMES).toEqual(['claude-desktop', 'claude-code', 'cursor']);
  });

  it('macOS', () => {
    const at = (client: (typeof CLIENT_NAMES)[number]) => defaultConfigPath(client, 'darwin', {}, '/Users/p');
    expect(at('claude-desktop')).toBe('/Users/p/Library/Application Support/Claude/claude_desktop_config.json');
    expect(at('claude-code')).toBe('/Users/p/.claude.json');
    expect(at('cursor')).toBe('/Users/p/.cursor/mcp.json');
  });

  it('Windows: Claude Desktop under %APPDATA% (or the usual Roaming folder without it), the others under the profile', () => {
    const env = { APPDATA: 'C:\\Users\\p\\AppData\\Roaming' };
    expect(defaultConfigPath('claude-desktop', 'win32', env, 'C:\\Users\\p')).toBe(
      'C:\\Users\\p\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    );
    expect(defaultConfigPath('claude-desktop', 'win32', {}, 'C:\\Users\\p')).toBe(
      'C:\\Users\\p\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    );
    expect(defaultConfigPath('claude-desktop', 'win32', { APPDATA: 'D:\\Roam' }, 'C:\\Users\\p')).toBe(
      'D:\\Roam\\Claude\\claude_desktop_config.json',
    );
    expect(defaultConfigPath('claude-code', 'win32', env, 'C:\\Users\\p')).toBe('C:\\Users\\p\\.claude.json');
    expect(defaultConfigPath('cursor', 'win32', env, 'C:\\Users\\p')).toBe('C:\\Users\\p\\.cursor\\mcp.json');
  });

  it('Linux: Claude Desktop under ~/.config (or an absolute XDG_CONFIG_HOME)', () => {
    expect(defaultConfigPath('claude-desktop', 'linux', {}, '/home/p')).toBe(
      '/home/p/.config/Claude/claude_desktop_config.json',
    );
    expect(defaultConfigPath('claude-desktop', 'linux', { XDG_CONFIG_HOME: '/xdg' }, '/home/p')).toBe(
      '/xdg/Claude/claude_desktop_config.json',
    );
    // A relative or empty value is ignored, as the XDG spec says.
    expect(defaultConfigPath('claude-desktop', 'linux', { XDG_CONFIG_HOME: 'rel' }, '/home/p')).toBe(
      '/home/p/.config/Claude/claude_desktop_config.json',
    );
    expect(defaultConfigPath('claude-desktop', 'linux', { XDG_CONFIG_HOME: '' }, '/home/p')).toBe(
      '/home/p/.config/Claude/claude_desktop_config.json',
    );
    expect(defaultConfigPath('claude-code', 'linux', {}, '/home/p')).toBe('/home/p/.claude.json');
    expect(defaultConfigPath('cursor', 'linux', {}, '/home/p')).toBe('/home/p/.cursor/mcp.json');
  });

  it('Claude Code: .claude.json moves into CLAUDE_CONFIG_DIR on every OS', () => {
    expect(defaultConfigPath('claude-code', 'linux', { CLAUDE_CONFIG_DIR: '/cfg/claude' }, '/home/p')).toBe(
      '/cfg/claude/.claude.json',
    );
    expect(defaultConfigPath('claude-code', 'darwin', { CLAUDE_CONFIG_DIR: '/cfg' }, '/Users/p')).toBe(
      '/cfg/.claude.json',
    );
    expect(defaultConfigPath('claude-code', 'win32', { CLAUDE_CONFIG_DIR: 'D:\\cc' }, 'C:\\Users\\p')).toBe(
      'D:\\cc\\.claude.json',
    );
  });
});

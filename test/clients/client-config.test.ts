// installClient on real files: other entries and keys kept in order, the person's own args kept, backups, refusals that
// write nothing, idempotence, removal, new files and folders, modes and symlinks.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { installClient } from '../../electron/core/clients/client-config.js';
import { ConfigRefusedError } from '../../electron/core/clients/mcp-servers.js';
import { tempDirs } from './support.js';

const dirs = tempDirs('clients');
afterAll(() => dirs.cleanup());

const mode = (path: string) => statSync(path).mode & 0o777;
const LAUNCHER = '/data/bin/chrome-mcp-helper';
const ours = { command: LAUNCHER, args: [] };

/** A config in a fresh folder, with the given text and mode. */
function configWith(text: string, fileMode = 0o644): string {
  const path = join(dirs.make(), 'config.json');
  writeFileSync(path, text);
  chmodSync(path, fileMode);
  return path;
}

const install = (configPath: string) => installClient({ client: 'cursor', configPath, command: LAUNCHER });
const remove = (configPath: string) => installClient({ client: 'cursor', configPath, remove: true });
const backups = (configPath: string) =>
  readdirSync(join(configPath, '..')).filter((name) => name.includes('.chrome-mcp-backup-'));

const EXISTING = `{
    "theme": "dark",
    "mcpServers": {
        "github": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": { "GITHUB_TOKEN": "ghp_x" } },
        "zeta": { "url": "https://example.com/mcp" }
    },
    "numStartups": 41
}`;

describe('installClient', () => {
  it('adds our entry after the others, keeps every other key in its order, and backs the file up first in its mode', () => {
    const path = configWith(EXISTING, 0o640);
    const result = install(path);
    expect(result).toEqual({
      path,
      action: 'added',
      backup: expect.stringMatching(/config\.json\.chrome-mcp-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d/),
    });
    const text = readFileSync(path, 'utf8');
    expect(text).toBe(
      `${JSON.stringify({ ...JSON.parse(EXISTING), mcpServers: { ...JSON.parse(EXISTING).mcpServers, 'chrome-mcp': ours } }, null, 2)}\n`,
    );
    expect(Object.keys(JSON.parse(text))).toEqual(['theme', 'mcpServers', 'numStartups']);
    expect(Object.keys(JSON.parse(text).mcpServers)).toEqual(['github', 'zeta', 'chrome-mcp']);
    expect(readFileSync(result.backup!, 'utf8')).toBe(EXISTING);
    expect(mode(result.backup!)).toBe(0o640);
    expect(mode(path)).toBe(0o640);
  });

  it('adds mcpServers at the end when the file has none', () => {
    const path = configWith('{"a":1,"b":[2]}');
    install(path);
    expect(readFileSync(path, 'utf8')).toBe(
      `{\n  "a": 1,\n  "b": [\n    2\n  ],\n  "mcpServers": {\n    "chrome-mcp": {\n      "command": "${LAUNCHER}",\n      "args": []\n    }\n  }\n}\n`,
    );
  });

  it("creates a missing file, and its folders, this user's alone, with no backup", () => {
    const path = join(dirs.make(), 'Application Support', 'Claude', 'claude_desktop_config.json');
    expect(installClient({ client: 'claude-desktop', configPath: path, command: LAUNCHER })).toEqual({
      path,
      action: 'added',
    });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ mcpServers: { 'chrome-mcp': ours } });
    expect(mode(path)).toBe(0o600);
    expect(mode(join(path, '..'))).toBe(0o700);
    expect(backups(path)).toEqual([]);
  });

  it('is idempotent: a second run writes nothing, makes no second backup, and says unchanged', () => {
    const path = configWith(EXISTING);
    install(path);
    const after = readFileSync(path, 'utf8');
    const { ino, mtimeMs } = statSync(path);
    expect(install(path)).toEqual({ path, action: 'unchanged' });
    expect(readFileSync(path, 'utf8')).toBe(after);
    expect(statSync(path)).toMatchObject({ ino, mtimeMs });
    expect(backups(path)).toHaveLength(1);
  });

  it('leaves a file already naming us alone, in its own formatting', () => {
    const text = `{"mcpServers":{"chrome-mcp":{"command":"${LAUNCHER}","args":[]}}}`;
    const path = configWith(text);
    expect(install(path).action).toBe('unchanged');
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(backups(path)).toEqual([]);
  });

  it("updates a stale entry in its place, keeping the person's env", () => {
    const path = configWith(
      '{"mcpServers":{"chrome-mcp":{"command":"node","args":["/old/cli.js"],"env":{"X":"1"}},"other":{"command":"o"}}}',
    );
    const result = install(path);
    expect(result.action).toBe('updated');
    expect(result.backup).toBeDefined();
    const servers = JSON.parse(readFileSync(path, 'utf8')).mcpServers;
    expect(Object.keys(servers)).toEqual(['chrome-mcp', 'other']);
    expect(servers['chrome-mcp']).toEqual({ command: LAUNCHER, args: [], env: { X: '1' } });
  });

  it("keeps the person's own args (flags for the core) through a repeat install and an update, and removes them with the entry", () => {
    const flags = ['--allow', 'example.com', '--headless'];
    const mine = { command: LAUNCHER, args: flags, env: { X: '1' } };
    const path = configWith(JSON.stringify({ mcpServers: { 'chrome-mcp': mine } }));
    const before = readFileSync(path, 'utf8');
    expect(install(path)).toEqual({ path, action: 'unchanged' });
    expect(readFileSync(path, 'utf8')).toBe(before);

    // The launcher moved (another data dir): our command changes, the flags stay.
    const moved = configWith(
      JSON.stringify({ mcpServers: { 'chrome-mcp': { ...mine, command: '/old/data/bin/chrome-mcp-helper' } } }),
    );
    expect(install(moved).action).toBe('updated');
    expect(JSON.parse(readFileSync(moved, 'utf8')).mcpServers['chrome-mcp']).toEqual(mine);
    expect(install(moved).action).toBe('unchanged');

    expect(remove(moved).action).toBe('removed');
    expect(JSON.parse(readFileSync(moved, 'utf8')).mcpServers).toEqual({});
  });

  it("carries flags over from the hand-written forms that ran chrome-mcp, and drops any other program's args", () => {
    const after = (entry: object) => {
      const path = configWith(JSON.stringify({ mcpServers: { 'chrome-mcp': entry } }));
      install(path);
      return JSON.parse(readFileSync(path, 'utf8')).mcpServers['chrome-mcp'].args;
    };
    expect(after({ command: 'chrome-mcp', args: ['--allow', 'a.com'] })).toEqual(['--allow', 'a.com']);
    expect(after({ command: 'C:\\npm\\chrome-mcp.cmd', args: ['--headless'] })).toEqual(['--headless']);
    expect(
      after({ command: '/usr/bin/node', args: ['/src/chrome-mcp/dist/electron/helper/cli.js', '--allow', 'a.com'] }),
    ).toEqual(['--allow', 'a.com']);
    expect(after({ command: 'C:\\Program Files\\nodejs\\node.exe', args: ['C:\\cm\\cli.js'] })).toEqual([]);
    expect(after({ command: 'npx', args: ['-y', 'some-server', '--allow', 'a.com'] })).toEqual([]);
    expect(after({ command: LAUNCHER, args: '--allow a.com' })).toEqual([]);
  });

  it('refuses a file that is not valid JSON, naming it and where the error is, and writes nothing', () => {
    const text = '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n';
    const path = configWith(text);
    const before = readdirSync(join(path, '..'));
    expect(() => install(path)).toThrow(ConfigRefusedError);
    expect(() => install(path)).toThrow(
      `${path} is not valid JSON (Expected ',' or '}' after property value at line 4, column 5)`,
    );
    expect(() => remove(path)).toThrow(/nothing was changed/);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(readdirSync(join(path, '..'))).toEqual(before);
  });

  it('finds the spot V8 does not name (an unexpected token), and never quotes the file in its message', () => {
    const path = configWith('{\n  "mcpServers": {},\n  "apiKey": sk-secret\n}');
    expect(() => install(path)).toThrow(`${path} is not valid JSON (Unexpected token 's' at line 3, column 13)`);
    expect(() => install(path)).not.toThrow(/secret/);
    const cut = configWith('{"mcpServers": {"a": [');
    expect(() => install(cut)).toThrow(`${cut} is not valid JSON (Unexpected end of JSON input at line 1, column 23)`);
    // JSON with comments (JSONC) would lose them: refused too.
    expect(() => install(configWith('{\n  // mine\n  "mcpServers": {}\n}'))).toThrow(/line 2, column 3/);
  });

  it('refuses a config whose mcpServers is not an object, or that is not an object at all, and writes nothing', () => {
    for (const [text, why] of [
      ['{"mcpServers": []}', 'has "mcpServers" as an array, not an object of servers'],
      ['{"mcpServers": null}', 'has "mcpServers" as null, not an object of servers'],
      ['{"mcpServers": "x"}', 'has "mcpServers" as a string, not an object of servers'],
      ['[]', 'holds an array, not a JSON object'],
      ['42', 'holds a number, not a JSON object'],
    ]) {
      const path = configWith(text!);
      expect(() => install(path)).toThrow(
        `${path} ${why}: fix or move it by hand, then run this again (nothing was changed)`,
      );
      expect(readFileSync(path, 'utf8')).toBe(text);
      expect(backups(path)).toEqual([]);
    }
  });

  it('--remove takes only our entry away and backs the file up', () => {
    const path = configWith(EXISTING);
    install(path);
    const result = remove(path);
    expect(result).toEqual({ path, action: 'removed', backup: expect.any(String) });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(JSON.parse(EXISTING));
    expect(readFileSync(result.backup!, 'utf8')).toContain('"chrome-mcp"');
    // Nothing left to take: nothing written, no further backup.
    expect(remove(path)).toEqual({ path, action: 'absent' });
    expect(backups(path)).toHaveLength(2);
  });

  it('keeps both backups of two changes within the same millisecond', () => {
    const path = configWith(EXISTING);
    const frozen = vi.spyOn(Date.prototype, 'toISOString').mockReturnValue('2026-01-02T03:04:05.678Z');
    try {
      const first = install(path).backup;
      const second = remove(path).backup;
      expect(second).toBe(`${first}-1`);
      expect(readFileSync(first!, 'utf8')).toBe(EXISTING);
      expect(readFileSync(second!, 'utf8')).toContain('"chrome-mcp"');
    } finally {
      frozen.mockRestore();
    }
  });

  it('--remove on a missing file creates nothing', () => {
    const path = join(dirs.make(), 'missing', 'mcp.json');
    expect(remove(path)).toEqual({ path, action: 'absent' });
    expect(existsSync(join(path, '..'))).toBe(false);
  });

  it("keeps the file's mode through a change", () => {
    for (const fileMode of [0o600, 0o644, 0o664]) {
      const path = configWith('{}', fileMode);
      install(path);
      expect(mode(path)).toBe(fileMode);
    }
  });

  it('writes through a symlinked config (a dotfiles repo) instead of replacing the link', () => {
    const root = dirs.make();
    mkdirSync(join(root, 'dotfiles'));
    const real = join(root, 'dotfiles', 'mcp.json');
    writeFileSync(real, '{"mcpServers":{}}');
    const link = join(root, 'mcp.json');
    symlinkSync(real, link);
    const result = install(link);
    expect(result.path).toBe(link);
    expect(result.backup!.startsWith(`${real}.chrome-mcp-backup-`)).toBe(true);
    expect(JSON.parse(readFileSync(real, 'utf8'))).toEqual({ mcpServers: { 'chrome-mcp': ours } });
  });

  it('takes an empty file, or one with a byte-order mark, as a config to edit', () => {
    const empty = configWith('');
    expect(install(empty).action).toBe('added');
    const bom = configWith('\uFEFF{"x":true}');
    expect(install(bom).action).toBe('added');
    expect(JSON.parse(readFileSync(bom, 'utf8'))).toEqual({ x: true, mcpServers: { 'chrome-mcp': ours } });
  });
});

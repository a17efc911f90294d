// Claude Code's entry made through its own `claude mcp` (a fake one first on PATH, recording its argv), and the file
// edit in its place when there is no `claude`; the other clients never run it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ClaudeCliError, withClaudeInstallDirs } from '../../electron/core/clients/claude-cli.js';
import { ConfigRefusedError } from '../../electron/core/clients/mcp-servers.js';
import { registerClient } from '../../electron/core/clients/register-client.js';
import { claudeHome, type FakeClaude, tempDirs } from './support.js';

const dirs = tempDirs('register');
afterAll(() => dirs.cleanup());

const LAUNCHER = '/home/p/.chrome-mcp/bin/chrome-mcp-helper';
const home = (fake?: FakeClaude) => claudeHome(dirs.make(), fake);
const install = (env: NodeJS.ProcessEnv, timeoutMs?: number) =>
  registerClient({ client: 'claude-code', command: LAUNCHER }, { env, timeoutMs });
const remove = (env: NodeJS.ProcessEnv) => registerClient({ client: 'claude-code', remove: true }, { env });
const servers = (config: string): Record<string, unknown> => JSON.parse(readFileSync(config, 'utf8')).mcpServers;
const backups = (config: string) =>
  readdirSync(join(config, '..')).filter((name) => name.includes('.chrome-mcp-backup-'));

const add = (entry: object) => ['mcp', 'add-json', '--scope', 'user', 'chrome-mcp', JSON.stringify(entry)];
const REMOVE = ['mcp', 'remove', '--scope', 'user', 'chrome-mcp'];
const REWRITES =
  'Claude Code rewrites this file while it runs and can undo this change: quit Claude Code before making it, or make it again once Claude Code has restarted.';

describe.skipIf(process.platform === 'win32')('registerClient for Claude Code', () => {
  it('adds through `claude mcp add-json --scope user`, then finds it up to date without running claude', async () => {
    const { env, config, calls } = home();
    writeFileSync(config, JSON.stringify({ numStartups: 7, mcpServers: { other: { command: 'o' } } }));
    expect(await install(env)).toEqual({ path: config, action: 'added', viaClaudeCli: true });
    expect(calls()).toEqual([add({ command: LAUNCHER, args: [] })]);
    expect(servers(config)).toEqual({ other: { command: 'o' }, 'chrome-mcp': { command: LAUNCHER, args: [] } });
    // Claude Code's own command wrote the file: no backup of ours.
    expect(backups(config)).toEqual([]);

    expect(await install(env)).toEqual({ path: config, action: 'unchanged' });
    expect(calls()).toHaveLength(1);
  });

  it("updates an old entry by removing it, then adding ours with the person's env and flags", async () => {
    const { env, config, calls } = home();
    const old = {
      type: 'stdio',
      command: '/old/data/bin/chrome-mcp-helper',
      args: ['--allow', 'example.com'],
      env: { X: '1' },
    };
    writeFileSync(config, JSON.stringify({ mcpServers: { 'chrome-mcp': old } }));
    expect(await install(env)).toEqual({ path: config, action: 'updated', viaClaudeCli: true });
    const ours = { ...old, command: LAUNCHER };
    expect(calls()).toEqual([REMOVE, add(ours)]);
    expect(servers(config)).toEqual({ 'chrome-mcp': ours });
    expect(await install(env)).toMatchObject({ action: 'unchanged' });
    expect(calls()).toHaveLength(2);
  });

  it('--remove runs `claude mcp remove --scope user chrome-mcp`, then has nothing to remove', async () => {
    const { env, config, calls } = home();
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { 'chrome-mcp': { command: LAUNCHER, args: ['--allow', 'a.com'] } } }),
    );
    expect(await remove(env)).toEqual({ path: config, action: 'removed', viaClaudeCli: true });
    expect(calls()).toEqual([REMOVE]);
    expect(servers(config)).toEqual({});
    expect(await remove(env)).toEqual({ path: config, action: 'absent' });
    expect(calls()).toHaveLength(1);
  });

  it('reports claude failing in its own words, changes nothing and does not edit the file behind its back', async () => {
    const { env, config, calls } = home({ fail: "Error: EACCES: permission denied, open '/x/.claude.json'" });
    writeFileSync(config, '{}');
    const failed = install(env);
    await expect(failed).rejects.toThrow(ClaudeCliError);
    await expect(failed).rejects.toThrow(
      "Claude Code could not add chrome-mcp: `claude mcp add-json` failed (exit code 1): Error: EACCES: permission denied, open '/x/.claude.json'. See `claude mcp list`, then try again.",
    );
    expect(calls()).toEqual([add({ command: LAUNCHER, args: [] })]);
    expect(readFileSync(config, 'utf8')).toBe('{}');
    expect(backups(config)).toEqual([]);
  });

  it('says the old entry is gone when the add after its removal fails', async () => {
    const { env, config, calls } = home({ fail: 'Invalid configuration: command: Required', failOnly: 'add-json' });
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { 'chrome-mcp': { command: '/old/bin/chrome-mcp-helper', args: [] } } }),
    );
    await expect(install(env)).rejects.toThrow(
      'Claude Code could not update chrome-mcp: `claude mcp add-json` failed (exit code 1): Invalid configuration: command: Required. Its old entry had already been taken out to be replaced, so Claude Code has no chrome-mcp now. See `claude mcp list`, then try again.',
    );
    expect(calls()).toEqual([REMOVE, add({ command: LAUNCHER, args: [] })]);
    expect(servers(config)).toEqual({});
  });

  it('stops a claude that hangs at the timeout and says so', async () => {
    const { env, config, calls } = home({ hang: true });
    writeFileSync(config, '{}');
    await expect(install(env, 300)).rejects.toThrow(
      'Claude Code could not add chrome-mcp: `claude mcp add-json` did not finish within 0.3 s and was stopped. See `claude mcp list`, then try again.',
    );
    // Run once, never retried: on a loaded machine the fake may be stopped before node has even started to log it.
    expect(calls().length).toBeLessThanOrEqual(1);
    expect(readFileSync(config, 'utf8')).toBe('{}');
  });

  it('finds claude where its installer puts it (~/.local/bin) when PATH does not name that folder, as an app from the Dock', async () => {
    const { env, config, calls } = home({ installedIn: join('.local', 'bin') });
    writeFileSync(config, '{}');
    expect(env['PATH']).not.toContain('.local');
    expect(await install(env)).toEqual({ path: config, action: 'added', viaClaudeCli: true });
    expect(calls()).toEqual([add({ command: LAUNCHER, args: [] })]);
  });

  it('edits the file itself when there is no claude on PATH, backing it up and saying to quit Claude Code first', async () => {
    const { env, config } = home({ missing: true });
    writeFileSync(config, JSON.stringify({ numStartups: 3 }));
    const result = await install(env);
    expect(result).toEqual({
      path: config,
      action: 'added',
      backup: expect.stringContaining('.claude.json.chrome-mcp-backup-'),
      caution: `The \`claude\` command is not on PATH, so the file was edited directly. ${REWRITES}`,
    });
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({
      numStartups: 3,
      mcpServers: { 'chrome-mcp': { command: LAUNCHER, args: [] } },
    });
    // Nothing written, nothing to quit for.
    expect(await install(env)).toEqual({ path: config, action: 'unchanged' });
    expect(await remove(env)).toMatchObject({ action: 'removed', caution: expect.stringContaining('not on PATH') });
  });

  it('refuses a .claude.json that is not valid JSON before running claude', async () => {
    const { env, config, calls } = home();
    writeFileSync(config, '{"numStartups": 3,,}');
    await expect(install(env)).rejects.toThrow(ConfigRefusedError);
    expect(calls()).toEqual([]);
  });

  it('edits a file named with --config directly, with the same caution, even with claude on PATH', async () => {
    const { env, calls } = home();
    const named = join(dirs.make(), 'claude.json');
    const result = await registerClient({ client: 'claude-code', configPath: named, command: LAUNCHER }, { env });
    expect(result).toEqual({ path: named, action: 'added', caution: REWRITES });
    expect(calls()).toEqual([]);
  });

  it('never runs claude for Claude Desktop or Cursor', async () => {
    const { env, calls } = home();
    const named = join(dirs.make(), 'mcp.json');
    expect(await registerClient({ client: 'cursor', configPath: named, command: LAUNCHER }, { env })).toEqual({
      path: named,
      action: 'added',
    });
    expect(calls()).toEqual([]);
  });
});

describe.skipIf(process.platform === 'win32')('the folders claude is looked for in', () => {
  it("adds the installers' folders after PATH, once, and Homebrew's and /usr/local's only on macOS", () => {
    const env = { HOME: '/Users/p', PATH: '/usr/bin:/bin:/usr/local/bin' };
    expect(withClaudeInstallDirs(env, 'darwin')['PATH']).toBe(
      '/usr/bin:/bin:/usr/local/bin:/Users/p/.local/bin:/Users/p/.claude/local:/opt/homebrew/bin',
    );
    expect(withClaudeInstallDirs({ HOME: '/home/p', PATH: '/usr/bin' }, 'linux')['PATH']).toBe(
      '/usr/bin:/home/p/.local/bin:/home/p/.claude/local',
    );
    expect(withClaudeInstallDirs({}, 'linux')['PATH']).toBe('');
  });
});

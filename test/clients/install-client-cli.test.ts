// `chrome-mcp install-client` as a real process: what it prints, its exit codes, and that the entry it writes starts
// chrome-mcp.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../electron/core/version.js';
import { CLI, runCli, tempDirs } from './support.js';

const dirs = tempDirs('install-client');
afterAll(() => dirs.cleanup());

describe('install-client (real process)', () => {
  it('adds the entry, naming the launcher, which starts this chrome-mcp; then is up to date; then removes it', () => {
    const root = dirs.make();
    const config = join(root, 'cursor', 'mcp.json');
    const dataDir = join(root, 'data');
    const launcher = join(dataDir, 'bin', 'chrome-mcp-helper');
    const first = runCli(['install-client', 'cursor', '--config', config, '--data-dir', dataDir]);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toBe(`helper launcher: ${launcher}\nadded chrome-mcp to ${config}\nRestart Cursor to load the change.\n`);
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ mcpServers: { 'chrome-mcp': { command: launcher, args: [] } } });
    // The launcher runs this node and this build, pinned to the data dir it lives in.
    expect(readFileSync(launcher, 'utf8')).toContain(`exec '${process.execPath}' '${CLI}' '--data-dir' '${dataDir}' "$@"\n`);
    if (process.platform === 'linux') expect(execFileSync(launcher, ['--version'], { encoding: 'utf8' })).toBe(`${VERSION}\n`);

    const again = runCli(['install-client', 'cursor', '--config', config, '--data-dir', dataDir]);
    expect(again).toMatchObject({ code: 0, stdout: `helper launcher: ${launcher}\n${config} is already up to date\n` });

    const removed = runCli(['install-client', 'cursor', '--config', config, '--remove']);
    expect(removed).toMatchObject({ code: 0, stderr: '' });
    expect(removed.stdout).toMatch(new RegExp(`^removed chrome-mcp from ${config}\nbackup of the previous file: ${config}\\.chrome-mcp-backup-\\S+\nRestart Cursor`));
    expect(runCli(['install-client', 'cursor', '--config', config, '--remove']).stdout).toBe(`nothing to remove: ${config} has no chrome-mcp entry\n`);
  });

  it('says where the backup of an existing config went', () => {
    const config = join(dirs.make(), 'claude_desktop_config.json');
    writeFileSync(config, '{"mcpServers":{"other":{"command":"x"}}}');
    const run = runCli(['install-client', 'claude-desktop', '--config', config, '--data-dir', join(dirs.make(), 'data')]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const [backup] = readdirSync(join(config, '..')).filter((name) => name.includes('backup'));
    expect(run.stdout).toContain(`added chrome-mcp to ${config}\nbackup of the previous file: ${join(config, '..', backup!)}\nRestart Claude Desktop`);
  });

  it('exits 1, changing nothing, for a config that is not valid JSON', () => {
    const config = join(dirs.make(), '.claude.json');
    writeFileSync(config, '{"numStartups": 3,,}');
    const run = runCli(['install-client', 'claude-code', '--config', config, '--data-dir', join(dirs.make(), 'data')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`chrome-mcp install-client: ${config} is not valid JSON (Expected double-quoted property name at line 1, column 19): fix or move it by hand, then run this again (nothing was changed)\n`);
    expect(readFileSync(config, 'utf8')).toBe('{"numStartups": 3,,}');
    expect(readdirSync(join(config, '..'))).toEqual(['.claude.json']);
  });

  it('exits 2 with the usage for an unknown client, a missing one or an unknown flag', () => {
    for (const args of [['install-client', 'vscode'], ['install-client'], ['install-client', '--remove', 'cursor'], ['install-client', 'cursor', '--force']]) {
      const run = runCli(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('Usage: chrome-mcp install-client claude-desktop|claude-code|cursor');
    }
    expect(runCli(['install-client', 'vscode']).stderr).toMatch(/^chrome-mcp install-client: unknown client 'vscode': use claude-desktop, claude-code, cursor\n/);
  });

  it('answers --help with the usage, and is listed in the top-level help', () => {
    expect(runCli(['install-client', '--help'])).toMatchObject({ code: 0, stdout: expect.stringContaining('--config PATH') });
    expect(runCli(['--help']).stdout).toMatch(/install-client +add chrome-mcp to Claude Desktop, Claude Code or Cursor/);
  });
});

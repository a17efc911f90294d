// `chrome-mcp install-client` as a real process: what it prints, its exit codes, that the entry it writes starts
// chrome-mcp, and Claude Code's entry made through a fake `claude` on PATH (or the file, with none).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../electron/core/version.js';
import { claudeHome, CLI, runCli, tempDirs } from './support.js';

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
    expect(first.stdout).toBe(
      `helper launcher: ${launcher}\nadded chrome-mcp to ${config}\nRestart Cursor to load the change.\n`,
    );
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({
      mcpServers: { 'chrome-mcp': { command: launcher, args: [] } },
    });
    // The launcher runs this node and this build, pinned to the data dir it lives in.
    expect(readFileSync(launcher, 'utf8')).toContain(
      `exec '${process.execPath}' '${CLI}' '--data-dir' '${dataDir}' "$@"\n`,
    );
    if (process.platform === 'linux')
      expect(execFileSync(launcher, ['--version'], { encoding: 'utf8' })).toBe(`${VERSION}\n`);

    const again = runCli(['install-client', 'cursor', '--config', config, '--data-dir', dataDir]);
    expect(again).toMatchObject({ code: 0, stdout: `helper launcher: ${launcher}\n${config} is already up to date\n` });

    const removed = runCli(['install-client', 'cursor', '--config', config, '--remove']);
    expect(removed).toMatchObject({ code: 0, stderr: '' });
    expect(removed.stdout).toMatch(
      new RegExp(
        `^removed chrome-mcp from ${config}\nbackup of the previous file: ${config}\\.chrome-mcp-backup-\\S+\nRestart Cursor`,
      ),
    );
    expect(runCli(['install-client', 'cursor', '--config', config, '--remove']).stdout).toBe(
      `nothing to remove: ${config} has no chrome-mcp entry\n`,
    );
  });

  it('says where the backup of an existing config went', () => {
    const config = join(dirs.make(), 'claude_desktop_config.json');
    writeFileSync(config, '{"mcpServers":{"other":{"command":"x"}}}');
    const run = runCli([
      'install-client',
      'claude-desktop',
      '--config',
      config,
      '--data-dir',
      join(dirs.make(), 'data'),
    ]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const [backup] = readdirSync(join(config, '..')).filter((name) => name.includes('backup'));
    expect(run.stdout).toContain(
      `added chrome-mcp to ${config}\nbackup of the previous file: ${join(config, '..', backup!)}\nRestart Claude Desktop`,
    );
  });

  it('exits 1, changing nothing, for a config that is not valid JSON', () => {
    const config = join(dirs.make(), '.claude.json');
    writeFileSync(config, '{"numStartups": 3,,}');
    const run = runCli(['install-client', 'claude-code', '--config', config, '--data-dir', join(dirs.make(), 'data')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `chrome-mcp install-client: ${config} is not valid JSON (Expected double-quoted property name at line 1, column 19): fix or move it by hand, then run this again (nothing was changed)\n`,
    );
    expect(readFileSync(config, 'utf8')).toBe('{"numStartups": 3,,}');
    expect(readdirSync(join(config, '..'))).toEqual(['.claude.json']);
  });

  it.skipIf(process.platform === 'win32')(
    'claude-code goes through `claude mcp` when claude is on PATH, and is idempotent',
    () => {
      const root = dirs.make();
      const { env, config, calls } = claudeHome(root);
      writeFileSync(config, '{"numStartups": 3}');
      const dataDir = join(root, 'data');
      const launcher = join(dataDir, 'bin', 'chrome-mcp-helper');
      const added = runCli(['install-client', 'claude-code', '--data-dir', dataDir], env);
      expect(added).toMatchObject({ code: 0, stderr: '' });
      expect(added.stdout).toBe(
        `helper launcher: ${launcher}\nadded chrome-mcp to ${config} with \`claude mcp\`\nRestart Claude Code to load the change.\n`,
      );
      expect(calls()).toEqual([
        ['mcp', 'add-json', '--scope', 'user', 'chrome-mcp', JSON.stringify({ command: launcher, args: [] })],
      ]);
      expect(runCli(['install-client', 'claude-code', '--data-dir', dataDir], env).stdout).toBe(
        `helper launcher: ${launcher}\n${config} is already up to date\n`,
      );
      expect(calls()).toHaveLength(1);

      const removed = runCli(['install-client', 'claude-code', '--remove'], env);
      expect(removed).toMatchObject({
        code: 0,
        stdout: `removed chrome-mcp from ${config} with \`claude mcp\`\nRestart Claude Code to load the change.\n`,
      });
      expect(calls().at(-1)).toEqual(['mcp', 'remove', '--scope', 'user', 'chrome-mcp']);
      expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ numStartups: 3, mcpServers: {} });
    },
  );

  it.skipIf(process.platform === 'win32')("claude-code exits 1 with claude's own words when it fails", () => {
    const root = dirs.make();
    const { env, config } = claudeHome(root, { fail: 'Error: config is locked' });
    const run = runCli(['install-client', 'claude-code', '--data-dir', join(root, 'data')], env);
    expect(run).toMatchObject({ code: 1, stdout: expect.stringMatching(/^helper launcher: /) });
    expect(run.stderr).toBe(
      'chrome-mcp install-client: Claude Code could not add chrome-mcp: `claude mcp add-json` failed (exit code 1): Error: config is locked. See `claude mcp list`, then try again.\n',
    );
    expect(existsSync(config)).toBe(false);
  });

  it('claude-code without claude on PATH edits the file, and says to quit Claude Code first', () => {
    const root = dirs.make();
    const { env, config } = claudeHome(root, { missing: true });
    const dataDir = join(root, 'data');
    const run = runCli(['install-client', 'claude-code', '--data-dir', dataDir], env);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const launcher = JSON.parse(readFileSync(config, 'utf8')).mcpServers['chrome-mcp'].command;
    expect(launcher.startsWith(join(dataDir, 'bin', 'chrome-mcp-helper'))).toBe(true);
    expect(run.stdout).toBe(
      `helper launcher: ${launcher}\nadded chrome-mcp to ${config}\nRestart Claude Code to load the change.\nThe \`claude\` command is not on PATH, so the file was edited directly. Claude Code rewrites this file while it runs and can undo this change: quit Claude Code before making it, or make it again once Claude Code has restarted.\n`,
    );
  });

  it('exits 2 with the usage for an unknown client, a missing one or an unknown flag', () => {
    for (const args of [
      ['install-client', 'vscode'],
      ['install-client'],
      ['install-client', '--remove', 'cursor'],
      ['install-client', 'cursor', '--force'],
    ]) {
      const run = runCli(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('Usage: chrome-mcp install-client claude-desktop|claude-code|cursor');
    }
    expect(runCli(['install-client', 'vscode']).stderr).toMatch(
      /^chrome-mcp install-client: unknown client 'vscode': use claude-desktop, claude-code, cursor\n/,
    );
  });

  it('answers --help with the usage, and is listed in the top-level help', () => {
    expect(runCli(['install-client', '--help'])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('--config PATH'),
    });
    expect(runCli(['--help']).stdout).toMatch(
      /install-client +add chrome-mcp to Claude Desktop, Claude Code or Cursor/,
    );
  });
});

// The tray's Connect items on real config files in a temp folder: our entry names the helper launcher, and the person
// is told what happened — connected (restart the client), already connected, or refused with the file left alone;
// Claude Code through a fake `claude` on PATH, or, with none, the file and what to do for the change to hold.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_NAMES } from '../../electron/core/clients/client-paths.js';
import { registerClient } from '../../electron/core/clients/register-client.js';
import { connectClient } from '../../electron/main/connect-client.js';
import { claudeHome, type FakeClaude } from '../clients/support.js';
import { removeDir } from '../support/remove-dir.js';

const scratch = mkdtempSync(join(tmpdir(), 'cm-connect-'));
afterAll(() => removeDir(scratch));

const LAUNCHER = '/home/person/.chrome-mcp/bin/chrome-mcp-helper';

/** registerClient itself, on a config file of the test's instead of the client's real one. */
function configAt(path: string): typeof registerClient {
  return (request) => registerClient({ ...request, configPath: path });
}

/** registerClient for Claude Code's own config in a temp home, with a fake `claude` (or none) on PATH. */
function claudeAt(fake?: FakeClaude) {
  const home = claudeHome(mkdtempSync(join(scratch, 'claude-')), fake);
  const register: typeof registerClient = (request) => registerClient(request, { env: home.env });
  return { ...home, register };
}

function freshConfig(text?: string): string {
  const path = join(mkdtempSync(join(scratch, 'case-')), 'mcp.json');
  if (text !== undefined) writeFileSync(path, text);
  return path;
}

const REWRITES =
  'Claude Code rewrites this file while it runs and can undo this change: quit Claude Code before making it, or make it again once Claude Code has restarted.';
const servers = (path: string): unknown =>
  (JSON.parse(readFileSync(path, 'utf8')) as { mcpServers: unknown }).mcpServers;

describe('Connect <client>', () => {
  it.each(CLIENT_NAMES)('writes %s a config entry that runs the launcher, and says to restart it', async (client) => {
    const path = freshConfig();
    const outcome = await connectClient(client, LAUNCHER, configAt(path));
    expect(servers(path)).toEqual({ 'chrome-mcp': { command: LAUNCHER, args: [] } });
    expect(outcome.ok).toBe(true);
    expect(outcome.title).toMatch(/^(Claude Desktop|Claude Code|Cursor) connected$/);
    const restart = `Restart ${outcome.title.replace(/ connected$/, '')} to use Chrome MCP (${path}).`;
    // A file named for Claude Code is edited directly, and Claude Code may write over it while it runs.
    expect(outcome.body).toBe(client === 'claude-code' ? `${restart} ${REWRITES}` : restart);
  });

  it("keeps the other servers, names the backup of the old file, and updates an entry for a launcher that moved, keeping the person's flags", async () => {
    const old = { command: '/old/bin/chrome-mcp-helper', args: ['--allow', 'example.com'] };
    const path = freshConfig(JSON.stringify({ mcpServers: { other: { command: 'other-server' }, 'chrome-mcp': old } }));
    const outcome = await connectClient('cursor', LAUNCHER, configAt(path));
    expect(servers(path)).toEqual({
      other: { command: 'other-server' },
      'chrome-mcp': { command: LAUNCHER, args: ['--allow', 'example.com'] },
    });
    expect(outcome).toMatchObject({ ok: true, title: 'Cursor connected' });
    const backup = /The old file is kept as (.+)\.$/.exec(outcome.body)?.[1];
    expect(backup).toBeDefined();
    expect(JSON.parse(readFileSync(backup!, 'utf8'))).toMatchObject({ mcpServers: { 'chrome-mcp': old } });
  });

  it('says the client is already connected when its config runs this launcher, writing nothing', async () => {
    const path = freshConfig();
    await connectClient('claude-desktop', LAUNCHER, configAt(path));
    const before = readFileSync(path, 'utf8');
    const again = await connectClient('claude-desktop', LAUNCHER, configAt(path));
    expect(again).toEqual({
      ok: true,
      title: 'Claude Desktop is already connected',
      body: `Its config (${path}) already runs Chrome MCP.`,
    });
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('refuses a config that is not valid JSON, telling the person which file and that nothing changed', async () => {
    const broken = '{"mcpServers": {"other": {"command": "x"},}';
    const path = freshConfig(broken);
    const outcome = await connectClient('claude-code', LAUNCHER, configAt(path));
    expect(outcome.ok).toBe(false);
    expect(outcome.title).toBe('Could not connect Claude Code');
    expect(outcome.body).toContain(path);
    expect(outcome.body).toContain('is not valid JSON');
    expect(outcome.body).toContain('nothing was changed');
    expect(readFileSync(path, 'utf8')).toBe(broken);
  });

  it('refuses a config whose mcpServers is not an object of servers', async () => {
    const path = freshConfig('{"mcpServers": []}');
    const outcome = await connectClient('cursor', LAUNCHER, configAt(path));
    expect(outcome).toMatchObject({ ok: false, title: 'Could not connect Cursor' });
    expect(outcome.body).toContain('"mcpServers" as an array');
    expect(readFileSync(path, 'utf8')).toBe('{"mcpServers": []}');
  });

  it("makes the client's folder when the client has never run", async () => {
    const path = join(mkdtempSync(join(scratch, 'case-')), '.cursor', 'mcp.json');
    expect(await connectClient('cursor', LAUNCHER, configAt(path))).toMatchObject({
      ok: true,
      title: 'Cursor connected',
    });
    expect(existsSync(path)).toBe(true);
  });

  describe.skipIf(process.platform === 'win32')('Claude Code', () => {
    it('connects through `claude mcp add-json`, then is already connected without running claude again', async () => {
      const { config, calls, register } = claudeAt();
      expect(await connectClient('claude-code', LAUNCHER, register)).toEqual({
        ok: true,
        title: 'Claude Code connected',
        body: `Restart Claude Code to use Chrome MCP (${config}).`,
      });
      expect(calls()).toEqual([
        ['mcp', 'add-json', '--scope', 'user', 'chrome-mcp', JSON.stringify({ command: LAUNCHER, args: [] })],
      ]);
      expect(await connectClient('claude-code', LAUNCHER, register)).toMatchObject({
        ok: true,
        title: 'Claude Code is already connected',
      });
      expect(calls()).toHaveLength(1);
    });

    it('tells the person what claude said when it fails, and leaves the file alone', async () => {
      const { config, register } = claudeAt({ fail: 'Error: config is locked' });
      writeFileSync(config, '{}');
      expect(await connectClient('claude-code', LAUNCHER, register)).toEqual({
        ok: false,
        title: 'Could not connect Claude Code',
        body: 'Claude Code could not add chrome-mcp: `claude mcp add-json` failed (exit code 1): Error: config is locked. See `claude mcp list`, then try again.',
      });
      expect(readFileSync(config, 'utf8')).toBe('{}');
    });

    it('edits the file without claude on PATH, and says to quit Claude Code first', async () => {
      const { config, register } = claudeAt({ missing: true });
      const outcome = await connectClient('claude-code', LAUNCHER, register);
      expect(outcome).toEqual({
        ok: true,
        title: 'Claude Code connected',
        body: `Restart Claude Code to use Chrome MCP (${config}). The \`claude\` command is not on PATH, so the file was edited directly. ${REWRITES}`,
      });
      expect(servers(config)).toEqual({ 'chrome-mcp': { command: LAUNCHER, args: [] } });
    });
  });
});

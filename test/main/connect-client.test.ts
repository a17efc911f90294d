// The tray's Connect items on real config files in a temp folder: our entry names the helper launcher, and the person
// is told what happened — connected (restart the client), already connected, or refused with the file left alone.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_NAMES } from '../../electron/core/clients/client-paths.js';
import { installClient } from '../../electron/core/clients/client-config.js';
import { connectClient } from '../../electron/main/connect-client.js';

const scratch = mkdtempSync(join(tmpdir(), 'cm-connect-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const LAUNCHER = '/home/person/.chrome-mcp/bin/chrome-mcp-helper';

/** installClient itself, on a config file of the test's instead of the client's real one. */
function configAt(path: string): typeof installClient {
  return (request) => installClient({ ...request, configPath: path });
}

function freshConfig(text?: string): string {
  const path = join(mkdtempSync(join(scratch, 'case-')), 'mcp.json');
  if (text !== undefined) writeFileSync(path, text);
  return path;
}

const servers = (path: string): unknown => (JSON.parse(readFileSync(path, 'utf8')) as { mcpServers: unknown }).mcpServers;

describe('Connect <client>', () => {
  it.each(CLIENT_NAMES)('writes %s a config entry that runs the launcher, and says to restart it', (client) => {
    const path = freshConfig();
    const outcome = connectClient(client, LAUNCHER, configAt(path));
    expect(servers(path)).toEqual({ 'chrome-mcp': { command: LAUNCHER, args: [] } });
    expect(outcome.ok).toBe(true);
    expect(outcome.title).toMatch(/^(Claude Desktop|Claude Code|Cursor) connected$/);
    expect(outcome.body).toBe(`Restart ${outcome.title.replace(/ connected$/, '')} to use Chrome MCP (${path}).`);
  });

  it('keeps the other servers, names the backup of the old file, and updates an entry for a launcher that moved', () => {
    const path = freshConfig(JSON.stringify({ mcpServers: { other: { command: 'other-server' }, 'chrome-mcp': { command: '/old/helper', args: ['x'] } } }));
    const outcome = connectClient('cursor', LAUNCHER, configAt(path));
    expect(servers(path)).toEqual({ other: { command: 'other-server' }, 'chrome-mcp': { command: LAUNCHER, args: [] } });
    expect(outcome).toMatchObject({ ok: true, title: 'Cursor connected' });
    const backup = /The old file is kept as (.+)\.$/.exec(outcome.body)?.[1];
    expect(backup).toBeDefined();
    expect(JSON.parse(readFileSync(backup!, 'utf8'))).toMatchObject({ mcpServers: { 'chrome-mcp': { command: '/old/helper' } } });
  });

  it('says the client is already connected when its config runs this launcher, writing nothing', () => {
    const path = freshConfig();
    connectClient('claude-desktop', LAUNCHER, configAt(path));
    const before = readFileSync(path, 'utf8');
    const again = connectClient('claude-desktop', LAUNCHER, configAt(path));
    expect(again).toEqual({ ok: true, title: 'Claude Desktop is already connected', body: `Its config (${path}) already runs Chrome MCP.` });
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('refuses a config that is not valid JSON, telling the person which file and that nothing changed', () => {
    const broken = '{"mcpServers": {"other": {"command": "x"},}';
    const path = freshConfig(broken);
    const outcome = connectClient('claude-code', LAUNCHER, configAt(path));
    expect(outcome.ok).toBe(false);
    expect(outcome.title).toBe('Could not connect Claude Code');
    expect(outcome.body).toContain(path);
    expect(outcome.body).toContain('is not valid JSON');
    expect(outcome.body).toContain('nothing was changed');
    expect(readFileSync(path, 'utf8')).toBe(broken);
  });

  it('refuses a config whose mcpServers is not an object of servers', () => {
    const path = freshConfig('{"mcpServers": []}');
    const outcome = connectClient('cursor', LAUNCHER, configAt(path));
    expect(outcome).toMatchObject({ ok: false, title: 'Could not connect Cursor' });
    expect(outcome.body).toContain('"mcpServers" as an array');
    expect(readFileSync(path, 'utf8')).toBe('{"mcpServers": []}');
  });

  it('makes the client\'s folder when the client has never run', () => {
    const path = join(mkdtempSync(join(scratch, 'case-')), '.cursor', 'mcp.json');
    expect(connectClient('cursor', LAUNCHER, configAt(path))).toMatchObject({ ok: true, title: 'Cursor connected' });
    expect(existsSync(path)).toBe(true);
  });
});

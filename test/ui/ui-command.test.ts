// `chrome-mcp ui`, the built command: it names the missing core plainly, prints the panel's address with the token in
// the fragment, and hands exactly that address to the system's opener (here a stand-in xdg-open that records it).
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeControlFile } from '../../electron/core/control/control-file.js';
import { runCli } from '../pairing/support/cli.js';

const root = mkdtempSync(join(tmpdir(), 'chrome-mcp-ui-command-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const TOKEN = 'A'.repeat(43);

describe('chrome-mcp ui', () => {
  it('says clearly that no chrome-mcp is running', async () => {
    const dataDir = join(root, 'idle');
    const run = await runCli(['ui', '--data-dir', dataDir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`chrome-mcp ui: no chrome-mcp is running on ${dataDir}.\nStart your MCP client (it runs chrome-mcp), or pass the --data-dir it uses.\n`);
  });

  it('prints the address with the token in the fragment, or opens it with the system opener', async () => {
    const dataDir = join(root, 'running');
    // A live pid is what makes control.json current: this test's own stands in for a core.
    writeControlFile(dataDir, { port: 41234, token: TOKEN, pid: process.pid });
    const printed = await runCli(['ui', '--print', '--data-dir', dataDir]);
    expect(printed).toMatchObject({ code: 0, stderr: '' });
    expect(printed.stdout.toString()).toBe(`http://127.0.0.1:41234/#token=${TOKEN}\n`);

    const bin = join(root, 'bin');
    const opened = join(root, 'opened.txt');
    mkdirSync(bin);
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const run = await runCli(['ui', '--data-dir', dataDir], { env: { ...process.env, PATH: `${bin}:${process.env['PATH']}` } });
    expect(run.code).toBe(0);
    expect(run.stdout.toString()).toBe('Opened the panel at http://127.0.0.1:41234/ in your browser.\n');
    expect(run.stdout.toString()).not.toContain(TOKEN);
    await expect.poll(() => readFileSync(opened, 'utf8')).toBe(`http://127.0.0.1:41234/#token=${TOKEN}`);
  });
});

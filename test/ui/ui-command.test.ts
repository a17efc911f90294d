// `chrome-mcp ui`, the built command: it names the missing core plainly, prints the panel's address with the token in
// the fragment, and never puts the token on a command line: the system's opener (here a stand-in xdg-open that
// records its arguments) gets a 0600 file in the data dir, which real Chromium follows on to the panel's address.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { writeControlFile } from '../../electron/core/control/control-file.js';
import { runCli } from '../pairing/support/cli.js';
import { removeDir } from '../support/remove-dir.js';

const root = mkdtempSync(join(tmpdir(), 'chrome-mcp-ui-command-'));
afterAll(() => removeDir(root));

const TOKEN = 'A'.repeat(43);

describe('chrome-mcp ui', () => {
  it('says clearly that no chrome-mcp is running', async () => {
    const dataDir = join(root, 'idle');
    const run = await runCli(['ui', '--data-dir', dataDir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `chrome-mcp ui: no chrome-mcp is running on ${dataDir}.\nStart your MCP client (it runs chrome-mcp), or pass the --data-dir it uses.\n`,
    );
  });

  it('prints the address with the token in the fragment when asked', async () => {
    const dataDir = join(root, 'printing');
    // A live pid is what makes control.json current: this test's own stands in for a core.
    writeControlFile(dataDir, { port: 41234, token: TOKEN, pid: process.pid });
    const printed = await runCli(['ui', '--print', '--data-dir', dataDir]);
    expect(printed).toMatchObject({ code: 0, stderr: '' });
    expect(printed.stdout.toString()).toBe(`http://127.0.0.1:41234/#token=${TOKEN}\n`);
  });

  it('hands the opener a private file, never the token, and the file takes the browser to the panel', async () => {
    // A stand-in for the core's control server, to see the browser arrive.
    const arrived: string[] = [];
    const server = createServer((request, response) => {
      arrived.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'text/html' }).end('<title>panel</title>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const dataDir = join(root, 'opening');
    writeControlFile(dataDir, { port, token: TOKEN, pid: process.pid });

    const bin = join(root, 'bin');
    const argvFile = join(root, 'argv.txt');
    mkdirSync(bin);
    // Every argument, one a line: what `ps` or /proc/PID/cmdline would show any local user.
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$0" "$@" > '${argvFile}'\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const run = await runCli(['ui', '--data-dir', dataDir], {
      env: { ...process.env, PATH: `${bin}:${process.env['PATH']}` },
    });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.toString()).toBe(`Opened the panel at http://127.0.0.1:${port}/ in your browser.\n`);
    expect(run.stdout.toString()).not.toContain(TOKEN);

    await expect.poll(() => readFileSync(argvFile, 'utf8').split('\n').length).toBeGreaterThan(2);
    const argv = readFileSync(argvFile, 'utf8').trim().split('\n');
    expect(argv.join(' ')).not.toContain(TOKEN);
    expect(argv.slice(1)).toHaveLength(1);
    const opened = argv[1]!;
    expect(fileURLToPath(opened)).toBe(join(dataDir, 'open-panel.html'));
    expect(statSync(fileURLToPath(opened)).mode & 0o777).toBe(0o600);

    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(opened);
      await page.waitForURL(`http://127.0.0.1:${port}/#token=${TOKEN}`);
      // The browser may also ask for a favicon on its own; the panel page is what the file led it to.
      expect(arrived.filter((path) => path !== '/favicon.ico')).toEqual(['/']);
    } finally {
      await browser.close();
      server.close();
    }
  });
});

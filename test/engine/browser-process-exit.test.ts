// A server that exits before its browser has closed (a stop's deadline passing) takes the browser's whole process
// group with it. The "browser" here is a stand-in that answers CDP on the pipe but, unlike Chromium, does not quit
// when the pipe closes, and keeps a helper process of its own: only the exit-time kill can end them.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { processesMentioning } from '../support/processes.js';
import { removeDir } from '../support/remove-dir.js';

const BROWSER_PROCESS = fileURLToPath(new URL('../../dist/electron/core/fallback/browser-process.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'chrome-mcp-browser-exit-'));
const marker = join(dir, 'stand-in-browser');

afterAll(() => {
  for (const pid of processesMentioning(marker)) process.kill(pid, 'SIGKILL');
  removeDir(dir);
});

/** Answers every CDP command on fd 3/4, starts a long sleeper in its group, and stays when the pipe closes. */
const STAND_IN = `#!${process.execPath}
const fs = require('node:fs');
require('node:child_process').spawn('sleep', ['300', ${JSON.stringify(marker)}], { stdio: 'ignore' });
const input = fs.createReadStream(null, { fd: 3 });
let pending = '';
input.on('data', (chunk) => {
  pending += chunk;
  let end;
  while ((end = pending.indexOf('\\0')) >= 0) {
    const { id } = JSON.parse(pending.slice(0, end));
    pending = pending.slice(end + 1);
    fs.writeSync(4, JSON.stringify({ id, result: { product: 'stand-in' } }) + '\\0');
  }
});
input.on('error', () => undefined);
setInterval(() => undefined, 1000);
`;

/** Starts the stand-in through startBrowserProcess, then exits without closing it. */
const SERVER = `
import { startBrowserProcess } from ${JSON.stringify(BROWSER_PROCESS)};
await startBrowserProcess(${JSON.stringify(join(dir, 'stand-in.cjs'))}, [${JSON.stringify(marker)}]);
process.stdout.write('started\\n');
process.exit(0);
`;

describe('a server exiting before its browser closed', () => {
  it('kills the browser and its helpers, which would otherwise outlive it', async () => {
    writeFileSync(join(dir, 'stand-in.cjs'), STAND_IN);
    chmodSync(join(dir, 'stand-in.cjs'), 0o755);
    const server = spawn(process.execPath, ['--input-type=module', '-e', SERVER], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    server.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => server.once('exit', resolve));
    expect(out).toBe('started\n');
    expect(code).toBe(0);
    // The stand-in and its sleeper never quit by themselves; a SIGKILL'd group is gone as soon as it is scheduled.
    await expect.poll(() => processesMentioning(marker), { timeout: 10_000, interval: 50 }).toEqual([]);
  });
});

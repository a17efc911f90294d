// Profile-lock recovery on real Chromium: a browser orphaned by a killed server (its lock held by a live process
// on our own profile) is cleared so the next launch succeeds; a lock held by anything else is never touched.
import { mkdtempSync, readlinkSync, symlinkSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from '../../electron/core/fallback/launch.js';
import { isAlive, recoverProfileLock } from '../../electron/core/fallback/profile-lock.js';
import { removeDir } from '../support/remove-dir.js';

const launched: LaunchedBrowser[] = [];
const dirs: string[] = [];

function profile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chrome-mcp-lock-'));
  dirs.push(dir);
  return dir;
}

function lockPid(dir: string): number {
  return Number(readlinkSync(join(dir, 'SingletonLock')).split('-').pop());
}

afterEach(async () => {
  for (const browser of launched.splice(0)) await browser.close();
  for (const dir of dirs.splice(0)) removeDir(dir);
});

describe('profile lock recovery', () => {
  it('kills an orphaned browser still holding our profile, then launches', async () => {
    const dir = profile();
    // The "orphan": a browser on our profile whose server went away without closing it.
    const orphan = await launchBrowser({ headless: true, profileDir: dir, log: () => undefined });
    const orphanPid = lockPid(dir);
    const logs: string[] = [];
    const next = await launchBrowser({ headless: true, profileDir: dir, log: (line) => logs.push(line) });
    launched.push(next);
    expect(logs.join('\n')).toContain('orphan-killed');
    expect(isAlive(orphanPid)).toBe(false);
    expect(lockPid(dir)).not.toBe(orphanPid);
    const { product } = await next.connection.send<{ product: string }>('Browser.getVersion');
    expect(product).toMatch(/Chrom/);
    await orphan.close();
  });

  it('removes a stale lock of a dead process and leaves a live foreign owner alone', () => {
    const dir = profile();
    symlinkSync(`${hostname()}-999999999`, join(dir, 'SingletonLock'));
    expect(recoverProfileLock(dir)).toBe('stale-removed');
    expect(recoverProfileLock(dir)).toBe('none');
    // This test process is alive and is no browser of ours: its lock is never cleared or killed.
    symlinkSync(`${hostname()}-${process.pid}`, join(dir, 'SingletonLock'));
    expect(recoverProfileLock(dir)).toBe('held');
    expect(readlinkSync(join(dir, 'SingletonLock'))).toBe(`${hostname()}-${process.pid}`);
  });
});

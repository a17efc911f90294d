// Profile-lock recovery: a client that SIGKILLs us orphans Chromium's SingletonLock; clear it only when its owner is gone or is our own browser.
import { readlinkSync, rmSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';

const LOCK_FILES = ['SingletonLock', 'SingletonSocket', 'SingletonCookie'];

function lockOwner(profileDir: string): { host: string; pid: number } | undefined {
  try {
    const target = readlinkSync(join(profileDir, 'SingletonLock'));
    const dash = target.lastIndexOf('-');
    const pid = Number(target.slice(dash + 1));
    return Number.isInteger(pid) ? { host: target.slice(0, dash), pid } : undefined;
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True when pid is a Chromium started on exactly this profile (so it is one we launched and lost). */
function isOurBrowser(pid: number, profileDir: string): boolean {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return cmdline.some((arg) => arg === `--user-data-dir=${profileDir}`);
  } catch {
    return false;
  }
}

/** Clears a stale lock on our owned profile; returns what it did so the caller can log it. */
export function recoverProfileLock(profileDir: string): 'none' | 'stale-removed' | 'orphan-killed' | 'held' {
  const owner = lockOwner(profileDir);
  if (!owner) return 'none';
  if (owner.host === hostname() && isAlive(owner.pid)) {
    if (!isOurBrowser(owner.pid, profileDir)) return 'held';
    process.kill(owner.pid, 'SIGKILL');
    removeLocks(profileDir);
    return 'orphan-killed';
  }
  if (owner.host !== hostname()) return 'held';
  removeLocks(profileDir);
  return 'stale-removed';
}

function removeLocks(profileDir: string): void {
  for (const file of LOCK_FILES) rmSync(join(profileDir, file), { force: true });
}

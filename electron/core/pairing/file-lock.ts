// A lock between processes on one machine: a file created exclusively (O_EXCL), removed when the work is done.
// Two native hosts started at once for a first pairing must not each mint a secret: the last write would win and
// the extension that got the other would be refused.
import { closeSync, openSync, rmSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

// Longer than any holder works (a keychain write has a 10 s deadline); past it a lock is a crashed holder's leftover.
const STALE_MS = 15_000;
const POLL_MS = 20;

function tryTake(path: string): boolean {
  try {
    closeSync(openSync(path, 'wx', 0o600));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  }
}

function isStale(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > STALE_MS;
  } catch {
    // Gone between our try and this look: not stale, just free.
    return false;
  }
}

/** Runs `work` while holding the lock at `path`, waiting for another holder to finish first. */
export async function withFileLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  while (!tryTake(path)) {
    if (isStale(path)) rmSync(path, { force: true });
    else await sleep(POLL_MS);
  }
  try {
    return await work();
  } finally {
    rmSync(path, { force: true });
  }
}

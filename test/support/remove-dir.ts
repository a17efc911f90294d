// Removes a test's scratch directory once no process still running on it (a quitting browser) can refill it.
import { rmSync } from 'node:fs';
import { processesMentioning } from './processes.js';

const QUIT_WAIT_MS = 10_000;
const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * A browser whose server was killed outright (a client gives a hung server 4 s) quits by itself once its pipe closes,
 * saving its profile as it goes: a removal meanwhile meets a directory that refills (ENOTEMPTY). Such a browser is
 * given 10 s to go, then killed; the removal itself still retries for 5 s.
 */
export function removeDir(dir: string): void {
  const until = Date.now() + QUIT_WAIT_MS;
  while (processesMentioning(dir).length > 0 && Date.now() < until) sleepSync(100);
  for (const pid of processesMentioning(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  rmSync(dir, { recursive: true, force: true, maxRetries: 50, retryDelay: 100 });
}

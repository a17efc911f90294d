// Removes a test's scratch directory, waiting out a browser that is still quitting and writing its profile there.
import { rmSync } from 'node:fs';

/**
 * A browser whose server was killed (a client's close gives a busy server 2 s) quits by itself once its pipe closes,
 * saving its profile as it goes: a plain removal then meets a directory that refills (ENOTEMPTY). Retried for 5 s.
 */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 50, retryDelay: 100 });
}

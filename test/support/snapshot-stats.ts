// How a frame's snapshots were answered (page/snapshot-frame.ts), for tests that tell a reused walk from a new one.
import { expect } from 'vitest';
import type { PageContext } from '../../shared/engine/page-context.js';
import type { SnapshotStats } from '../../shared/engine/page/snapshot-frame.js';

/** The top frame's snapshot counts so far. */
export async function stats(page: PageContext): Promise<SnapshotStats> {
  const [main] = await page.frames.list();
  return page.frames.call(main!, 'snapshotStats', []);
}

/**
 * The calls between `before` and `after` gave the kept lines without walking or resuming: on the engine's trust, or
 * after reading the whole stamp (both when the engine turned its trust down, as it does once counts moved).
 */
export function expectReused(before: SnapshotStats, after: SnapshotStats, what?: string): void {
  expect({ walks: after.walks, resumed: after.resumed }, what).toEqual({
    walks: before.walks,
    resumed: before.resumed,
  });
  expect(after.reused + after.trusted, what).toBeGreaterThan(before.reused + before.trusted);
}

/**
 * Repeats `look` until a repeat is given on the engine's trust (snapshot-trust.ts), so a change made next meets the
 * trust in play; the first repeats may be checked whole while the counts settle after the walk.
 */
export async function untilTrusted(page: PageContext, look: () => Promise<unknown>): Promise<void> {
  for (let tries = 0; tries < 10; tries++) {
    const before = await stats(page);
    await look();
    if ((await stats(page)).trusted > before.trusted) return;
  }
  throw new Error('no repeated snapshot was given on trust in 10 tries');
}

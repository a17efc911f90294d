// The late location change both backends run (engine and extension egress-late tests): a timer the eval's script left
// calls `location.assign` to the watched site a second after the eval returned; the hold stops it there.
import { expect } from 'vitest';
import type { LateTab } from './late-tab.js';

/** The navigation reaches no one, the tab stays on its page, and the next result names the navigation. */
export async function lateLocationAssign(tab: LateTab): Promise<void> {
  await tab.run(
    `setTimeout(() => { location.assign('${tab.watched.origin}/assigned'); setTimeout(() => (window.assigned = true), 300); }, 1000); 0`,
  );
  await tab.until('assigned');
  expect(await tab.reached()).toEqual([]);
  expect(await tab.asPage('location.pathname')).toBe('/egress-late.html');
  expect(tab.heldLater(await tab.run('1'))).toEqual(['GET W/assigned (navigation)']);
}

// What the late-send tests read back: the page's marker that its late step has run, what reached the watched site, and
// the next result's list of what was held.
import { expect } from 'vitest';
import type { PageContext } from '../../shared/engine/page-context.js';
import type { OperationResult } from '../../shared/protocol/operations.js';
import { pageEval } from './page-probes.js';
import type { WatchedSite } from './watched-site.js';

/** The result's list of what was held since the last one, with the watched origin written as W. */
export function heldLater(result: OperationResult, watched: WatchedSite): string[] {
  return ((result.data?.['heldLater'] ?? []) as string[]).map((entry) => entry.replaceAll(watched.origin, 'W'));
}

/** Waits for the page's own marker that the script's late step has run (a real signal, not a sleep). */
export async function untilMarker(page: PageContext, marker: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await pageEval<boolean>(page, `window[${JSON.stringify(marker)}] === true`))) {
    if (Date.now() > deadline) throw new Error(`the page never set ${marker}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The paths that reached the watched site, once the page's own send (outside any eval) has arrived there. */
export async function reachedSite(page: PageContext, watched: WatchedSite): Promise<string[]> {
  const sent = await page.cdp.send<{ result: { value: string } }>('Runtime.evaluate', {
    expression: `pageSend(${JSON.stringify(`${watched.origin}/page-own`)})`,
    awaitPromise: true,
    returnByValue: true,
  });
  expect(sent.result.value).toBe('sent');
  expect(watched.requests).toContain('/page-own');
  return watched.requests.filter((path) => path !== '/page-own');
}

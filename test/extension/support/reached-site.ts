// What reached a watched site from the extension's test page besides the page's own send: read once that send, made with
// no eval open, has arrived, so anything the script left that would have gone out by then has too.
import { expect } from 'vitest';
import type { WatchedSite } from '../../support/watched-site.js';
import type { PageProbe } from './page-probe.js';
import { until } from './until.js';

/** The paths that reached `site`, but for `/page-own`, once the page's own send has arrived there. */
export async function reachedBesidesOwn(page: PageProbe, site: WatchedSite): Promise<string[]> {
  // Right after a result the hold's lifting may still be on its way to the page (egress-hold.ts does not wait for it),
  // and a send the page makes meanwhile is held like any other: the page tries again.
  const send = () => page.evaluate<string>(`pageSend(${JSON.stringify(`${site.origin}/page-own`)})`);
  expect(await until(send, (outcome) => outcome === 'sent')).toBe('sent');
  expect(site.requests).toContain('/page-own');
  return site.requests.filter((path) => path !== '/page-own');
}

// The unload-listener case both backends run: a script leaves a pagehide listener that sends the page's key to the
// watched site with a keepalive fetch and a beacon, and the person closes the tab. The page's own goodbye beacon,
// registered first, tells when the unload is over where it arrives (a backend may hold it with the script's).
import type { WatchedSite } from './watched-site.js';

const KEY = `document.getElementById('secret').textContent`;
// Where the page's goodbye does not arrive, how long its sends are given to reach the site.
const UNLOAD_MS = 3_000;

/** The page's own pagehide beacon, registered before any script's listener. */
export const pageGoodbye = (site: WatchedSite): string =>
  `addEventListener('pagehide', () => navigator.sendBeacon('${site.origin}/own-bye', 'bye')); 0`;

/** The agent's script: a pagehide listener that sends the key twice, as a page can once it is gone. */
export const scriptGoodbye = (site: WatchedSite): string => `addEventListener('pagehide', () => {
  fetch('${site.origin}/gone-fetch?k=' + encodeURIComponent(${KEY}), { method: 'POST', body: ${KEY}, keepalive: true, mode: 'no-cors' });
  navigator.sendBeacon('${site.origin}/gone-beacon', ${KEY});
}); 0`;

/** What of the script's unload sends reached the site, once the page's goodbye has or a few seconds went by. */
export async function scriptSendsArrived(site: WatchedSite): Promise<string[]> {
  const deadline = Date.now() + UNLOAD_MS;
  while (!site.requests.includes('/own-bye') && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  await site.settled();
  return site.requests.filter((path) => path.startsWith('/gone'));
}

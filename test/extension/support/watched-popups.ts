// What the popup tests in the real extension share: the policy naming the watched site, the page of links into it, and
// the clean-up between tests that closes its tabs and lets the site go quiet.
import { parseSitePattern } from '../../../shared/policy/pattern.js';
import type { Policy } from '../../../shared/policy/policy.js';
import type { WatchedSite } from '../../support/watched-site.js';
import type { LinkedExtension } from './linked-extension.js';

/** `home` with one rule for the watched site at `level` (and the downloads switch). */
export function withSite(
  home: Policy,
  watched: WatchedSite,
  level: 'blocked' | 'act',
  downloads = home.downloads,
): Policy {
  return { ...home, downloads, rules: [{ site: parseSitePattern(new URL(watched.origin).host), level }] };
}

/** Opens the fixture page of links, buttons and forms into the watched site; its tab handle. */
export async function openLinksPage(linked: LinkedExtension, watched: WatchedSite): Promise<string> {
  const opened = await linked.run('tab_new', {
    url: linked.fixtures.url(`policy-links.html?to=${encodeURIComponent(watched.origin)}`),
  });
  return String(opened.data?.['tab']);
}

/**
 * Closes every tab on the watched site and forgets what it heard, once it is quiet: a popup left showing it would report
 * its focus changes during the next test, and a closed page may still have a report on its way.
 */
export async function forgetWatched(linked: LinkedExtension, watched: WatchedSite): Promise<void> {
  await linked.browser.evaluate(
    `chrome.tabs.query({ url: '${watched.origin}/*' }).then((tabs) => chrome.tabs.remove(tabs.map((tab) => tab.id)))`,
  );
  await watched.settled();
  watched.requests.length = 0;
}

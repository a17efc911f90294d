// What the engine does with a popup of a tab it drives: closes one heading for a site the person did not allow, attaches
// the rest, and follows one the host attached late for the opener's agent script (popup-trail.ts) with its own guard.
import { ToolError } from '../protocol/errors.js';
import { siteOf } from '../policy/site.js';
import type { CdpEvent } from './cdp.js';
import { frameOrigin } from './frame.js';
import { networkEnableParams } from './network-log.js';
import type { PageContext } from './page-context.js';
import type { PolicyGate } from './policy-gate.js';
import { followPopup } from './popup-trail.js';
import type { Popup, TabHost } from './tab-host.js';

/**
 * The popup gets the engine's page context (`page` makes or finds it), whose guard judges its every frame's requests like
 * any navigation of ours. It is attached, never read: the model reaches it through `tabs` like any tab. One known to be
 * heading for a site the person did not allow is closed instead; one followed again after a re-attach (`kept`) that
 * shows such a site by now is left alone, as the host holds it meanwhile. `opener`: the opener's context, when attached.
 */
export async function attachPopup(
  popup: Popup,
  host: TabHost,
  gate: PolicyGate,
  page: (hostId: string) => Promise<PageContext>,
  opener: PageContext | undefined,
): Promise<void> {
  // Long open, it may show a page of the person's own by now: not the engine's to close.
  const refused = () => (popup.kept ? Promise.resolve() : host.close(popup.id));
  if (popup.url && !gate.allows({ url: popup.url }, 'read')) return refused();
  const attached = await page(popup.id).catch(async (error: unknown) => {
    // Refused at attach: by now it shows such a site.
    if (error instanceof ToolError && (error.code === 'POLICY_DENIED' || error.code === 'DOMAIN_CONFIRMATION_REQUIRED'))
      await refused();
    throw error;
  });
  const { tellOpener } = popup;
  if (!tellOpener) return;
  // Never a popup of a driven tab the opener's script could drive unfollowed: gone (its session with it), if so.
  await followLate(popup, attached, opener, tellOpener, host).catch(() => host.close(popup.id));
}

/**
 * Follows the popup from now on, until its attachment ends. Its session tells each request's initiator (Network);
 * what its opener's script may reach is what its trail lets it (egress-trail.ts): the origins of the opener's frames
 * the person lets the agent read. chrome.debugger names neither the opening frame nor, before the popup is attached,
 * whether its first request went: one told of with a URL to load was on its way, so no later request is the opener's
 * for want of a stack.
 */
async function followLate(
  popup: Popup,
  page: PageContext,
  opener: PageContext | undefined,
  tell: (event: CdpEvent) => void,
  host: TabHost,
): Promise<void> {
  const { kept, keep } = popup;
  // Followed again (a re-attach): by the origins judged at first, as the opener's frames may show others since.
  const origins = kept?.origins ?? (await openerOrigins(opener));
  const loaded = popup.url !== undefined && siteOf(popup.url).kind !== 'inherits';
  // Followed in the same turn as Network answers: every request told from then on is heard.
  await page.cdp.send('Network.enable', networkEnableParams(page.network));
  const opened = {
    origins,
    loaded,
    tell,
    ...(popup.url === undefined ? {} : { shows: popup.url }),
    ...(kept ? { kept } : {}),
    ...(keep ? { keep } : {}),
  };
  const stop = followPopup(page.cdp, page.frames.navigation, opened, () => {
    void closeIfBlank(host, popup.id).catch(() => undefined);
  });
  const stopWatching = page.cdp.on((event) => {
    if (event.method !== 'Inspector.detached' || event.sessionId !== undefined) return;
    stop();
    stopWatching();
  });
}

/** The origins of the opener's frames the person lets the agent read: what its script may reach. */
async function openerOrigins(opener: PageContext | undefined): Promise<(string | undefined)[]> {
  const frames = (await opener?.frames.list().catch(() => undefined)) ?? [];
  return frames.filter((frame) => opener?.frames.allows(frame, 'read')).map(frameOrigin);
}

/** A popup whose navigation was held before it showed anything would stay an empty window: it is closed. */
async function closeIfBlank(host: TabHost, id: string): Promise<void> {
  const shown = (await host.list()).find((tab) => tab.id === id);
  if (shown && (shown.url === '' || siteOf(shown.url).kind === 'inherits')) await host.close(id);
}

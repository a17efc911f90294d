// A window a driven tab opened: a request in it that the tab's agent script started (window.open from a timer it left,
// its async parents too, or a form it submitted into the window) to an origin outside the opener's is failed before it
// leaves, and the opener's trail told.
import type { Cdp, CdpEvent } from './cdp.js';
import { AllowedOrigins } from './egress-origins.js';
import {
  openedByScript,
  POPUP_HELD,
  POPUP_VERDICT,
  startedByScript,
  type PopupJudgement,
  type WindowVerdict,
} from './popup-events.js';
import type { NavigationGuard } from './navigation-guard.js';
import { fromScript, InitiatorVerdicts, type Initiator } from './script-initiator.js';

// A first document with no address on the network: the opener's script wrote what it holds.
const WRITTEN = /^(blob|data):/;

interface Sent {
  requestId: string;
  initiator?: Initiator;
  type?: string;
  hasUserGesture?: boolean;
  request: { url: string; method: string };
}

interface Paused {
  requestId: string;
  networkId?: string;
  resourceType: string;
  request: { url: string; method: string };
  responseStatusCode?: number;
  responseErrorReason?: string;
}

export interface Opener {
  /** The origins of the opening frame and its tab: what the opener's own script may reach. */
  origins: (string | undefined)[];
  /** The opener's frame that opened the window; undefined when the host cannot tell (then any frame of the tab). */
  frameId?: string;
  /** Its first document request went before it was followed (a host that attaches late): no later one is the opener's. */
  loaded?: boolean;
  /** What it already shows when followed late: a page the opener's script wrote there is held whole from then on. */
  shows?: string;
  /** Tells the opener's stream (its trail) what was held, and asks it whose a window with no stack was. */
  tell(event: CdpEvent): void;
  /** What an earlier follow judged (the host kept it across a re-attach): its trail, new since, is not asked. */
  kept?: PopupJudgement;
  /** Hears what the window is judged by, now and on each change, for the host to keep. */
  keep?: (judgement: PopupJudgement) => void;
}

/** Windows held whole (see `holdWhole`), by their session's Cdp, with what they may reach. */
const wholeWindows = new WeakMap<Cdp, AllowedOrigins>();

/**
 * What the window on `cdp` may reach, when a page its opener's script wrote holds it whole: on its own session only
 * (`sessionId` undefined), not its frames' or workers'.
 */
export function heldWhole(cdp: Cdp, sessionId: string | undefined): AllowedOrigins | undefined {
  return sessionId === undefined ? wholeWindows.get(cdp) : undefined;
}

/**
 * Call before the popup runs. The popup's own session tells each request's initiator; V8 records the opener's stack
 * there (measured on Chromium 156: a `window.open` in a `setTimeout` of an eval names the eval's sourceURL, with the
 * timer as its async parent). A form submitted into the window names no stack at all (measured: initiator
 * {type: 'other'}): the window's first document request is the opener's, so the opener's trail says whose it was.
 * `judged`: told once the window's first document request is, whether that page is held whole from now on (a host that
 * pauses every request of the window until then lets the page's own go unpaused after).
 */
export function followPopup(
  popup: Cdp,
  guard: NavigationGuard,
  opener: Opener,
  held: () => void,
  judged?: (whole: boolean) => void,
): () => void {
  const allowed = new AllowedOrigins(opener.origins);
  const verdicts = new InitiatorVerdicts();
  const origins = opener.origins.filter((origin): origin is string => origin !== undefined);
  let opening = opener.loaded !== true;
  let scripted = opener.kept?.scripted === true;
  /** Whether the opener's script opened the window, as its trail tells (or, followed again, as was judged before). */
  const byScript = (hasUserGesture?: boolean): boolean =>
    (scripted && hasUserGesture !== true) ||
    openedByScript(opener.tell, {
      frameId: opener.frameId,
      ...(hasUserGesture === undefined ? {} : { hasUserGesture }),
    });
  // Seen open by a host that attaches late (a blob window the script opened): what it sends from now on is held.
  let written =
    (opener.kept?.whole === true || (opener.shows !== undefined && WRITTEN.test(opener.shows) && byScript())) &&
    holdWhole(popup, allowed);
  // A blank window is written by whoever opened it, whose code its own need not name (an inline handler's stack holds
  // only the written page): one the opener's script opened is the script's whole. Asked as it opens, with a gesture, as
  // Chrome's popup blocker lets no window open without one.
  const openedBlank = opening && openedByScript(opener.tell, { frameId: opener.frameId, hasUserGesture: true });
  // An eval's own code names itself, known with no trail; code it compiled only the opener's trail knows.
  const ofScript = (initiator: Initiator | undefined) =>
    fromScript(initiator) || startedByScript(opener.tell, initiator);
  /** Requests of a written page told held as they were sent: not told again when they pause. */
  const told = new Set<string>();
  const keepJudgement = () => opener.keep?.({ origins, scripted: scripted || openedBlank, whole: written });
  keepJudgement();
  const stopListening = popup.on((event) => {
    if (event.sessionId !== undefined) return;
    if (event.method === 'Network.webSocketCreated' && written) {
      // Fetch pauses no handshake: the browser's offline rule stops it, and this is where it is told.
      const url = String(event.params['url']);
      if (!allowed.allows(url))
        opener.tell({ method: POPUP_HELD, params: { method: 'WebSocket', url, kind: 'WebSocket' } });
      return;
    }
    // One the browser's rules stopped never pauses: its end is the last word of it.
    if (event.method === 'Network.loadingFailed' || event.method === 'Network.loadingFinished')
      return void told.delete(String(event.params['requestId']));
    if (event.method !== 'Network.requestWillBeSent') return;
    const sent = event.params as unknown as Sent;
    const document = sent.type === 'Document';
    const kind = document ? 'navigation' : (sent.type ?? 'Other');
    if (written) {
      // The browser's rules stop it, or it pauses and is failed; a document request is told when it pauses.
      if (!document && !allowed.allows(sent.request.url)) {
        told.add(sent.requestId);
        opener.tell({ method: POPUP_HELD, params: { method: sent.request.method, url: sent.request.url, kind } });
      }
      return verdicts.told(sent.requestId, { tainted: true, kind });
    }
    if (!document && opening) {
      // The empty first document the opener wrote into: its requests pause in the opener's session, whose trail judges
      // them by what is told here (a window the script opened, or the script on a request's stack or async parents).
      const tainted = openedBlank || ofScript(sent.initiator);
      const verdict: WindowVerdict = { requestId: sent.requestId, tainted, kind };
      opener.tell({ method: POPUP_VERDICT, params: { ...verdict } });
    }
    // Only the first: the window's later navigations are its own documents' doing, not the opener's.
    const opened = document && opening && sent.initiator?.stack === undefined && byScript(sent.hasUserGesture === true);
    const tainted = opened || ofScript(sent.initiator) || verdicts.peek(sent.requestId)?.tainted === true;
    if (document && opening && tainted && WRITTEN.test(sent.request.url)) written = holdWhole(popup, allowed);
    if (document && opening) judged?.(written);
    if (document) opening = false;
    // The script drove the window: kept so, should it be followed again after a re-attach.
    if (document && tainted) {
      scripted = true;
      keepJudgement();
    }
    verdicts.told(sent.requestId, { tainted, kind });
  });
  const fail = (event: CdpEvent, paused: Paused, kind: string): true => {
    // Aborted leaves the window on the page it had; a subresource fails as a network error would.
    const errorReason = kind === 'navigation' ? 'Aborted' : 'BlockedByClient';
    void popup.send('Fetch.failRequest', { requestId: paused.requestId, errorReason }).catch(() => undefined);
    if (!told.delete(paused.networkId ?? paused.requestId))
      opener.tell({ method: POPUP_HELD, params: { method: paused.request.method, url: paused.request.url, kind } });
    // A window whose navigation was held may be left with nothing to show; one whose page lost a request still shows it.
    if (kind === 'navigation') held();
    return true;
  };
  const stopIntercepting = guard.interceptFirst((event) => {
    const paused = event.params as unknown as Paused;
    if (event.sessionId !== undefined || paused.responseStatusCode !== undefined) return false;
    if (paused.responseErrorReason !== undefined || allowed.allows(paused.request.url)) return false;
    const untold = paused.resourceType === 'Document' ? 'navigation' : paused.resourceType;
    // Failed at once: a page the opener's script wrote is the script's whole, whatever its initiator says.
    if (written) return fail(event, paused, untold);
    const known = verdicts.take(paused.networkId ?? paused.requestId, untold, (verdict) => {
      if (verdict.tainted) fail(event, paused, verdict.kind);
      else guard.judge(event);
    });
    return known === undefined || (known.tainted && fail(event, paused, known.kind));
  });
  return () => {
    stopListening();
    stopIntercepting();
  };
}

/**
 * A window whose first document the opener's script wrote (a blob of its making) runs code no stack names as the
 * script's, for as long as it lives: like a blob worker, it reaches the opener's origins only, by the browser's rules,
 * which an eval's hold in the window puts back as they were when it lifts (egress-hold.ts). They come a moment after
 * its first request is told: what its document sends as it loads meets them only where the host pauses every request
 * of the window until its first document is judged (the fallback does), and is failed there.
 */
function holdWhole(popup: Cdp, allowed: AllowedOrigins): true {
  wholeWindows.set(popup, allowed);
  void popup.send('Network.setBlockedURLs', { urlPatterns: allowed.blockPatterns() }).catch(() => undefined);
  void popup
    .send('Network.emulateNetworkConditionsByRule', { matchedNetworkConditions: allowed.rules() })
    .catch(() => undefined);
  return true;
}

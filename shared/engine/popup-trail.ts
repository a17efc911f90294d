// A window a driven tab opened: a request in it that the tab's agent script started (window.open from a timer it left,
// its async parents too, or a form it submitted into the window) to an origin outside the opener's is failed before it
// leaves, and the opener's trail told.
import type { Cdp, CdpEvent } from './cdp.js';
import { AllowedOrigins } from './egress-origins.js';
import { openedByScript, POPUP_HELD, type PopupJudgement } from './popup-events.js';
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

/**
 * Call before the popup runs. The popup's own session tells each request's initiator; V8 records the opener's stack
 * there (measured on Chromium 156: a `window.open` in a `setTimeout` of an eval names the eval's sourceURL, with the
 * timer as its async parent). A form submitted into the window names no stack at all (measured: initiator
 * {type: 'other'}): the window's first document request is the opener's, so the opener's trail says whose it was.
 */
export function followPopup(popup: Cdp, guard: NavigationGuard, opener: Opener, held: () => void): () => void {
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
  const judged = () => opener.keep?.({ origins, scripted, whole: written });
  judged();
  const stopListening = popup.on((event) => {
    if (event.method !== 'Network.requestWillBeSent' || event.sessionId !== undefined) return;
    const sent = event.params as unknown as Sent;
    const document = sent.type === 'Document';
    const kind = document ? 'navigation' : (sent.type ?? 'Other');
    if (written) {
      // The browser's rules stop it; a document request is failed when it pauses, and told there.
      if (!document && !allowed.allows(sent.request.url))
        opener.tell({ method: POPUP_HELD, params: { method: sent.request.method, url: sent.request.url, kind } });
      return verdicts.told(sent.requestId, { tainted: true, kind });
    }
    // Only the first: the window's later navigations are its own documents' doing, not the opener's.
    const opened = document && opening && sent.initiator?.stack === undefined && byScript(sent.hasUserGesture === true);
    const tainted = opened || fromScript(sent.initiator) || verdicts.peek(sent.requestId)?.tainted === true;
    if (document && opening && tainted && WRITTEN.test(sent.request.url)) written = holdWhole(popup, allowed);
    if (document) opening = false;
    // The script drove the window: kept so, should it be followed again after a re-attach.
    if (document && tainted) {
      scripted = true;
      judged();
    }
    verdicts.told(sent.requestId, { tainted, kind });
  });
  const fail = (event: CdpEvent, paused: Paused, kind: string): true => {
    void popup
      .send('Fetch.failRequest', { requestId: paused.requestId, errorReason: 'Aborted' })
      .catch(() => undefined);
    opener.tell({ method: POPUP_HELD, params: { method: paused.request.method, url: paused.request.url, kind } });
    held();
    return true;
  };
  const stopIntercepting = guard.interceptFirst((event) => {
    const paused = event.params as unknown as Paused;
    if (event.sessionId !== undefined || paused.responseStatusCode !== undefined) return false;
    if (paused.responseErrorReason !== undefined || allowed.allows(paused.request.url)) return false;
    const known = verdicts.take(paused.networkId ?? paused.requestId, 'navigation', (verdict) => {
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
 * which pause nothing. They come a moment after its first request is told, so a send its document makes as it loads
 * may beat them; one it makes later (a timer, a message) does not.
 */
function holdWhole(popup: Cdp, allowed: AllowedOrigins): true {
  void popup.send('Network.setBlockedURLs', { urlPatterns: allowed.blockPatterns() }).catch(() => undefined);
  void popup
    .send('Network.emulateNetworkConditionsByRule', { matchedNetworkConditions: allowed.rules() })
    .catch(() => undefined);
  return true;
}

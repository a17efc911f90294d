// A window a driven tab opened: a request in it that the tab's agent script started (window.open from a timer it left,
// its async parents too) to an origin outside the opener's is failed before it leaves, and the opener's trail told.
import type { Cdp, CdpEvent } from '../../../shared/engine/cdp.js';
import { AllowedOrigins } from '../../../shared/engine/egress-origins.js';
import { POPUP_HELD } from '../../../shared/engine/egress-trail.js';
import type { NavigationGuard } from '../../../shared/engine/navigation-guard.js';
import { fromScript, InitiatorVerdicts, type Initiator } from '../../../shared/engine/script-initiator.js';

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
  /** Tells the opener's stream (its trail) what was held. */
  tell(event: CdpEvent): void;
}

/**
 * Call before the popup runs. The popup's own session tells each request's initiator; V8 records the opener's stack
 * there (measured on Chromium 156: a `window.open` in a `setTimeout` of an eval names the eval's sourceURL, with the
 * timer as its async parent). Form submissions and link clicks name no stack at all, so they are not told apart here.
 */
export function followPopup(popup: Cdp, guard: NavigationGuard, opener: Opener, held: () => void): () => void {
  const allowed = new AllowedOrigins(opener.origins);
  const verdicts = new InitiatorVerdicts();
  const stopListening = popup.on((event) => {
    if (event.method !== 'Network.requestWillBeSent' || event.sessionId !== undefined) return;
    const sent = event.params as { requestId: string; initiator?: Initiator; type?: string };
    const kind = sent.type === 'Document' ? 'navigation' : (sent.type ?? 'Other');
    verdicts.told(sent.requestId, {
      tainted: fromScript(sent.initiator) || verdicts.peek(sent.requestId)?.tainted === true,
      kind,
    });
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

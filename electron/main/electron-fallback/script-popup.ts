// Holds a window a driven tab asked for when its agent's script opened it towards another origin: Electron's
// window-open handler names no frame, gesture or stack, so the opener's trail is asked with those left unknown.
import type { HandlerDetails } from 'electron';
import type { CdpEvent } from '../../../shared/engine/cdp.js';
import type { Send } from '../../../shared/engine/egress-ledger.js';
import { AllowedOrigins } from '../../../shared/engine/egress-origins.js';
import { urlOrigin } from '../../../shared/engine/frame.js';
import { openedByScript, POPUP_HELD } from '../../../shared/engine/popup-events.js';

/**
 * True, and the opener's trail (`tell` reaches it) told what was held, when the window goes anywhere but a web page of
 * the opener's origins (its top document's, and the asking document's as its referrer tells) and the trail says the
 * script opened it: the caller then loads nothing. A data:, blob: or javascript: URL counts as elsewhere: the app loads
 * it, not the page, so the browser's refusal of a page's own top-level data: URL does not apply, and the document it
 * makes runs code no trail follows.
 */
export function heldForScript(
  tell: (event: CdpEvent) => void,
  openerUrl: string,
  details: Pick<HandlerDetails, 'url' | 'referrer' | 'postBody'>,
): boolean {
  const allowed = new AllowedOrigins([urlOrigin(openerUrl), urlOrigin(details.referrer.url)]);
  if (/^https?:\/\//.test(details.url) && allowed.allows(details.url)) return false;
  if (!openedByScript(tell, {})) return false;
  const held: Send = { method: details.postBody ? 'POST' : 'GET', url: details.url, kind: 'navigation' };
  tell({ method: POPUP_HELD, params: { ...held } });
  return true;
}

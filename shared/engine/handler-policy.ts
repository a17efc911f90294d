// The page-side half of the handler hold, as sources for a page's main world: Trusted Types' default policy, which
// Chrome calls with every string that becomes code or HTML (innerHTML, insertAdjacentHTML, DOMParser, document.write,
// an on* attribute's setAttribute, attr.value, a frame's srcdoc…), pauses the debugger on each that can hold an inline
// handler or a document, or is code (a timer's string, a script element's text), so the paused stack names whoever
// wrote it. A policy serves its own world only (measured on Chromium 156), and keeps from its install its own
// references to what it calls: a script that later replaces a prototype's method cannot blind it.
import { installHandlerPolicy, startHandlerPolicy } from './page/handler-policy.js';
import { shippedCall } from './shipped-call.js';

/** Every frame a policy runs in names this URL on its stack: the pause is the policy's, not a script's own write. */
export const POLICY_URL = 'chrome-mcp-policy://handlers';

/** Installs the policy and Trusted Types enforcement in a document, once. */
export function installSource(key: string): string {
  return `${shippedCall(installHandlerPolicy, `${JSON.stringify(key)}, true`)}\n//# sourceURL=${POLICY_URL}`;
}

/**
 * For each new document of the tab: an about:blank frame inherits its maker's enforcement, and with no default policy
 * its page's own innerHTML would throw; a frame of the site navigated after the eval is one a timer of the script's may
 * write into. Each takes a policy handing strings to the maker's, so the pause names its writer. A document of a site
 * in `origins` (those the agent could read at the last eval) keeps a default policy the page makes behind ours.
 */
export function newDocumentSource(key: string, origins: readonly string[]): string {
  const args = [installHandlerPolicy.toString(), JSON.stringify(key), JSON.stringify(origins)].join(', ');
  return `${shippedCall(startHandlerPolicy, args)}\n//# sourceURL=${POLICY_URL}`;
}

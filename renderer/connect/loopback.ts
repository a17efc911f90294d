// The panel served by the core over loopback HTTP: the token arrives once in the URL fragment (`chrome-mcp ui` opens
// `/#token=…`; a fragment never reaches a server or a Referer), moves to sessionStorage, and leaves the address bar.
import { createControlClient, type ControlClient } from '../../shared/control/client.js';

const KEY = 'chrome-mcp.token';

/** The client for the core that served this page, or undefined when the page was opened without a token. */
export function loopbackClient(): ControlClient | undefined {
  const fromFragment = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromFragment) {
    sessionStorage.setItem(KEY, fromFragment);
    // Out of the address bar, the history and any bookmark or screen share.
    history.replaceState(null, '', location.pathname + location.search);
  }
  const token = sessionStorage.getItem(KEY);
  return token ? createControlClient({ origin: location.origin, token }) : undefined;
}

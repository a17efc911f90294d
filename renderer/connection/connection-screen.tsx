// Connection & pairing: which browser the agent drives, whether the person's Chrome is linked through the extension,
// a one-time code to pair it, Revoke, and where the extension to load is.
import type { PairingStatus } from '../../shared/control/pairing.js';
import { coreStatus } from './core-status.js';
import { useLive } from '../live/use-live.js';
import { Card, clock, Problem } from '../parts.js';
import { ExtensionFolder } from './extension-folder.js';
import { PairingCard } from './pairing-card.js';

// The backend in use changes with no event (an extension answering again): the screen asks now and then.
const POLL_MS = 5_000;

export function ConnectionScreen() {
  const status = useLive((client) => client.call('status'), ['pairing'], POLL_MS);
  const pairing = useLive((client) => client.call('pairing.status'), ['pairing'], POLL_MS);
  const core = coreStatus(status.value?.core);
  const link = pairing.value;
  return (
    <div className="screen">
      <h1>Connection</h1>
      <Card title="Status">
        <dl>
          <dt>Agent's browser now</dt>
          <dd data-testid="backend">{backendText(core.backend)}</dd>
          <dt>Your Chrome (extension)</dt>
          <dd data-testid="extension">{link ? extensionText(link) : '…'}</dd>
          <dt>Fallback browser</dt>
          <dd>{fallbackText(core.browser)}</dd>
        </dl>
        <Problem text={status.error ?? pairing.error} />
      </Card>
      {link ? <PairingCard status={link} onStatus={pairing.set} /> : null}
      {link ? <ExtensionFolder path={link.extensionPath} /> : null}
    </div>
  );
}

function extensionText(link: PairingStatus): string {
  if (link.browser) return `connected: Chrome ${link.browser.chrome}, since ${clock(link.browser.connectedAt)}`;
  if (link.paired) return 'paired, not connected';
  return link.revokedAt === null ? 'not paired' : 'not paired: revoked, stays so until you pair again';
}

function backendText(backend: string | undefined): string {
  if (backend === 'extension') return 'your Chrome, through the extension';
  if (backend === 'fallback') return 'a separate browser chrome-mcp launched (not your profile)';
  if (backend === 'none') return 'none: no extension connected and no browser found';
  return 'not reported by this core';
}

function fallbackText(browser: ReturnType<typeof coreStatus>['browser']): string {
  if (!browser) return 'not reported by this core';
  if (browser.executable === null) return 'none found on this machine';
  const mode = browser.headless ? 'headless' : 'with a window';
  return browser.launched ? `running, ${mode}, ${browser.tabs ?? 0} tab(s)` : `starts on first use, ${mode}`;
}

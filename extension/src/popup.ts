// The toolbar popup: the link's state and port, and pairing by the one-time code from `chrome-mcp pair`.
import { linkStatusChange, readLinkStatus, type LinkStatus } from './link-status.js';
import { pairReply, type PopupRequest } from './messages.js';

const HEADLINES: Record<LinkStatus['state'], string> = {
  connected: 'Connected to the Chrome MCP app',
  connecting: 'Connecting to the app…',
  not_paired: 'Not paired with the app',
  revoked: 'Unpaired in the app',
  unauthorized: 'The app refused this browser',
  impostor: 'Refused a server that is not the app',
  other_version: 'The app and the extension are different versions',
  replaced: 'Another browser is connected to the app',
  disconnected: 'Not connected',
};

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`popup.html has no #${id}`);
  return found as T;
}

const state = element<HTMLElement>('state');
const port = element<HTMLElement>('port');
const detail = element<HTMLElement>('detail');
const form = element<HTMLFormElement>('pair-form');
const code = element<HTMLInputElement>('code');
const pairButton = element<HTMLButtonElement>('pair');
const reconnect = element<HTMLButtonElement>('reconnect');
const result = element<HTMLElement>('result');

function show(status: LinkStatus): void {
  state.textContent = HEADLINES[status.state];
  state.dataset['state'] = status.state;
  port.textContent = status.port === undefined ? '' : `Port ${status.port}`;
  detail.textContent = status.detail ?? '';
  reconnect.hidden = status.state === 'connected' || status.state === 'connecting';
}

function ask(request: PopupRequest): Promise<unknown> {
  // `connect` gets no answer, which Chrome reports as an error; the state arrives through storage instead.
  return chrome.runtime.sendMessage(request).catch(() => undefined);
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  pairButton.disabled = true;
  result.textContent = 'Pairing…';
  void ask({ type: 'pair', code: code.value })
    .then((reply) => {
      const parsed = pairReply.safeParse(reply);
      result.textContent = parsed.success ? parsed.data.message : 'The extension did not answer.';
      if (parsed.success && parsed.data.ok) code.value = '';
    })
    .finally(() => (pairButton.disabled = false));
});

reconnect.addEventListener('click', () => void ask({ type: 'connect', force: true }));

chrome.storage.onChanged.addListener((changes, area) => {
  const status = area === 'session' ? linkStatusChange(changes) : undefined;
  if (status) show(status);
});

void readLinkStatus().then(show);
// Opening the popup wakes the worker, which dials if it is not linked.
void ask({ type: 'connect', force: false });

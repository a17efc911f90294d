// The extension's service worker: every listener registered at the top level (Chrome only delivers events to
// listeners present on the first turn of a restarted worker), the bridge client, and the engine over chrome.debugger.
import { createEngineExecutor } from '../../shared/engine/executor.js';
import { personStopMessage } from '../../shared/engine/presence.js';
import { ToolError } from '../../shared/protocol/errors.js';
import type { ExtensionFrame } from '../../shared/protocol/wire.js';
import { BridgeClient } from './bridge-client.js';
import type { LinkSession } from './bridge-connection.js';
import { ChromeTabHost } from './chrome-tab-host.js';
import { CommandRouter } from './command-router.js';
import { credentialsChanged } from './credentials.js';
import { ensureAlarm, LINK_ALARM } from './link-timers.js';
import { popupRequest, type PairReply } from './messages.js';
import type { LinkPolicy } from './policy-holder.js';
import { keepRouteNamesOnly, openSessionStore } from './session-store.js';
import { WORKER_HOLD_ALARM } from './worker-hold-record.js';

// One host for the worker's life: attachments outlive a link, and a new link's attach must wait for the old one's detach.
const host = new ChromeTabHost();

async function startSession(
  session: string,
  send: (frame: ExtensionFrame) => void,
  linkPolicy: LinkPolicy,
): Promise<LinkSession> {
  const policy = () => linkPolicy.current();
  // Before the engine's first listener: a window kept from before is handed to it only once this link's policy came.
  host.follow(linkPolicy);
  const onPersonStop = (where: string) => {
    const message = personStopMessage(where);
    send({ type: 'stop', message });
    // Halts what runs here at once, within the step in flight, rather than after the core's cancel comes back.
    router.abortAll(new ToolError('STOPPED', `Stopped by the person: ${message}`));
  };
  const executor = createEngineExecutor(host, {
    tag: `x${session}`,
    store: await openSessionStore(),
    policy,
    onPersonStop,
  });
  const router = new CommandRouter(executor, send);
  return {
    router,
    policyChanged: () => {
      host.policyChanged();
      // The core's policy comes after the welcome, and until then every site is refused: the first one lets the
      // routes kept across a restart be judged and set again (later ones find nothing left to set).
      executor.restoreSetups();
    },
    async end() {
      // The host lets go first: the engine's disposal would send a Fetch.disable, which lets every paused request go.
      const lettingGo = host.detachAll();
      executor.dispose();
      await Promise.all([lettingGo, keepRouteNamesOnly().catch(() => undefined)]);
    },
  };
}

const client = new BridgeClient(startSession);

chrome.debugger.onEvent.addListener((source, method, params) => host.onEvent(source, method, params));
chrome.debugger.onDetach.addListener((source, reason) => {
  if (source.tabId !== undefined) host.ended(source.tabId, reason);
  else if (source.targetId !== undefined) host.workerEnded(source.targetId);
});
chrome.tabs.onRemoved.addListener((tabId) => host.removed(tabId));
chrome.webNavigation.onCreatedNavigationTarget.addListener((details) => host.popupOpened(details));

chrome.runtime.onStartup.addListener(() => void client.connect());
chrome.runtime.onInstalled.addListener(() => void client.connect());
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === LINK_ALARM) void client.connect();
  if (alarm.name === WORKER_HOLD_ALARM) host.workerHoldDue();
});
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && credentialsChanged(changes)) void client.credentialsChanged();
});

chrome.runtime.onMessage.addListener((message: unknown, sender, sendResponse: (reply: PairReply) => void) => {
  // Only our own pages (the popup, also when opened in a tab) may steer the link.
  if (sender.id !== chrome.runtime.id || !sender.url?.startsWith(chrome.runtime.getURL(''))) return false;
  const request = popupRequest.safeParse(message);
  if (!request.success) return false;
  if (request.data.type === 'connect') {
    void client.connect(request.data.force);
    return false;
  }
  void client.pair(request.data.code).then(sendResponse);
  // Keeps the channel open for the asynchronous answer.
  return true;
});

// Any wake-up (an alarm, a tab event, the popup) runs this: a worker that was stopped dials again at once.
void ensureAlarm();
void client.connect();

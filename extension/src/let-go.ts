// Lets go of chrome.debugger attachments without sending what they hold: a detach continues every request an attachment
// paused (PLATFORM_FACTS.md), so each is failed first and named to its tab, at a worker's start for the attachments a
// stopped worker left, and as a session ends for this worker's own.
import type { Send } from '../../shared/engine/egress-ledger.js';
import { failLeftPaused, type PausedRecord, type ToldHere } from './paused-record.js';

/** Names a request failed for want of an engine to its tab (or a kept window's opener). */
export type TellFailed = (tabId: number, send: Send) => void;

/**
 * Detaches whatever this extension still has attached: a stopped worker's attachments outlive it, and re-attaching
 * afresh is what makes Chrome announce a tab's out-of-process frames to the new engine. Tabs held only by other
 * clients refuse, harmlessly. What the stopped worker left paused there is failed first. Resolves to the tabs let go of
 * (some other client's among them): those the stopped worker drove.
 */
export async function sweepStaleAttachments(tell: TellFailed, toldHere: ToldHere): Promise<ReadonlySet<number>> {
  const targets = await chrome.debugger.getTargets().catch(() => []);
  const tabIds = targets.flatMap((target) => (target.attached && target.tabId !== undefined ? [target.tabId] : []));
  const failed = await failLeftPaused(tabIds, toldHere).catch(() => new Map<number, Send[]>());
  for (const [tabId, sends] of failed) for (const send of sends) tell(tabId, send);
  // A site's worker a stopped worker's gate borrowed (lent-workers.ts) would stay attached, kept alive by it (and closed,
  // had the act's rules been refused): let go too, as after a give-back; another client's attachment refuses.
  const workers = targets.flatMap((target) => (target.attached && target.type === 'worker' ? [target.id] : []));
  await Promise.all([
    ...tabIds.map((tabId) => chrome.debugger.detach({ tabId }).catch(() => undefined)),
    ...workers.map((targetId) => chrome.debugger.detach({ targetId }).catch(() => undefined)),
  ]);
  return new Set(tabIds);
}

/**
 * Detaches this worker's attachment of `tabId` once what it paused is failed. Call once no engine answers there any
 * more (its events then go to orphan-requests.ts, which fails and names the rest).
 */
export async function letGo(tabId: number, record: PausedRecord, tell: TellFailed, toldHere: ToldHere): Promise<void> {
  const failed = await record.failLeft(tabId, toldHere).catch(() => []);
  for (const send of failed) tell(tabId, send);
  await chrome.debugger.detach({ tabId });
}

// Keeps the requests the gate holds paused in chrome.storage.session, so that a worker Chrome stopped rejects them
// once it starts again, before it lets go of the tabs: a detach lets every paused request go (measured, Chromium 156).
import { z } from 'zod';
import type { PausedHeld } from '../../shared/engine/gate/held-acts.js';

const STORAGE_KEY = 'heldRequests';

const pausedHeld = z.array(z.object({ tab: z.string(), sessionId: z.string().optional(), requestId: z.string() }));

export function saveHeld(paused: PausedHeld[]): void {
  // A lost write leaves only what a restart would have released anyway; the act itself must not fail for it.
  void chrome.storage.session.set({ [STORAGE_KEY]: paused }).catch(() => undefined);
}

/** Fails every request an earlier worker held (the person never saw its card again), then forgets them. */
export async function rejectStaleHeld(): Promise<void> {
  const { [STORAGE_KEY]: raw } = await chrome.storage.session.get(STORAGE_KEY).catch(() => ({}) as Record<string, unknown>);
  const parsed = pausedHeld.safeParse(raw);
  if (!parsed.success || parsed.data.length === 0) return;
  await Promise.all(
    parsed.data.map(({ tab, sessionId, requestId }) => {
      const target: chrome.debugger.DebuggerSession = sessionId === undefined ? { tabId: Number(tab) } : { tabId: Number(tab), sessionId };
      return chrome.debugger.sendCommand(target, 'Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' }).catch(() => undefined);
    }),
  );
  await chrome.storage.session.remove(STORAGE_KEY).catch(() => undefined);
}

// Keeps the engine's tab state (owned tabs, each agent's current tab, handles, what was set up on each, the agent's
// routes whole) in chrome.storage.session, so a stopped and restarted worker still knows which tabs are the agents',
// sets their routes again and names what it lost; session storage is held in memory, is not given to content scripts
// (its default access level), and clears with the browser, as tab ids do.
import { z } from 'zod';
import type { TabSessionState, TabSessionStore } from '../../shared/engine/session-state.js';
import { namesOnly } from '../../shared/engine/tab-setups.js';

const STORAGE_KEY = 'tabSession';

/** The agent's routes kept whole (shared/engine/tab-setups.ts): what it wrote, a mock's body included. */
const keptRoutes = z
  .array(
    z.object({
      id: z.string(),
      url: z.string(),
      method: z.string().optional(),
      action: z.union([
        z.strictObject({ block: z.literal(true) }),
        z.strictObject({
          mock: z.object({ status: z.number().int(), headers: z.record(z.string(), z.string()), body: z.string() }),
        }),
        z.strictObject({ modify: z.object({ headers: z.record(z.string(), z.string().nullable()) }) }),
      ]),
      hits: z.number().int(),
    }),
  )
  .optional();

const tabSessionState = z.object({
  tag: z.string(),
  handles: z.array(z.tuple([z.string(), z.string()])),
  nextHandle: z.number().int().min(1),
  owned: z.array(z.string()),
  currents: z.record(z.string(), z.string()),
  closed: z.record(z.string(), z.string()),
  dialogs: z
    .array(
      z.tuple([
        z.string(),
        z.object({ kind: z.enum(['alert', 'confirm', 'prompt', 'beforeunload']), message: z.string() }),
      ]),
    )
    .optional(),
  setups: z
    .array(z.tuple([z.string(), z.object({ routes: z.array(z.string()), tracing: z.boolean(), kept: keptRoutes })]))
    .optional(),
});

export async function openSessionStore(): Promise<TabSessionStore> {
  const { [STORAGE_KEY]: raw } = await chrome.storage.session.get(STORAGE_KEY);
  const parsed = tabSessionState.safeParse(raw);
  let last = parsed.success ? JSON.stringify(parsed.data) : '';
  const store: TabSessionStore = {
    save(state: TabSessionState) {
      // Most calls change nothing (a snapshot on the current tab): skip the write.
      const text = JSON.stringify(state);
      if (text === last) return;
      last = text;
      // A lost write costs only what a restart would remember; the call itself must not fail for it. Refused whole
      // (the storage's quota), it goes again with the routes by name only, so a restart still names what it lost.
      void chrome.storage.session
        .set({ [STORAGE_KEY]: state })
        .catch(() => chrome.storage.session.set({ [STORAGE_KEY]: { ...state, setups: namesOnly(state.setups ?? []) } }))
        .catch(() => undefined);
    },
  };
  if (parsed.success) store.initial = parsed.data;
  return store;
}

/**
 * The link ended (the core closed it or went away): the next session names the routes this one kept as lost rather
 * than attach their tabs again unasked. Only a worker Chrome stopped, which ends no link, sets them again.
 */
export async function keepRouteNamesOnly(): Promise<void> {
  const { [STORAGE_KEY]: raw } = await chrome.storage.session.get(STORAGE_KEY);
  const parsed = tabSessionState.safeParse(raw);
  if (!parsed.success || !parsed.data.setups) return;
  await chrome.storage.session.set({ [STORAGE_KEY]: { ...parsed.data, setups: namesOnly(parsed.data.setups) } });
}

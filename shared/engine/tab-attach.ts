// Attaching the engine to one tab: judged before the debugger touches it, then a PageContext that serves at once even
// when the tab is held by a dialog it showed before we came.
import { PageContext } from './page-context.js';
import type { PolicyGate } from './policy-gate.js';
import type { SavedDialog } from './session-state.js';
import type { TabSetups } from './tab-setups.js';
import { withDeadline } from './deadline.js';
import type { TabHost } from './tab-host.js';

// Enabling a tab's domains takes milliseconds (measured, Chromium 156); a tab that has not answered by then waits on a
// dialog, or on a script that would keep every call waiting just as long. Wide: a loaded machine (CI's two shared cores)
// has taken over 2 s to enable a tab that was only just opened.
const HELD_AT_ATTACH_MS = 5_000;

export interface AttachedTab {
  page: PageContext;
  /** Stops watching the tab's debugger for its detach. */
  stop: () => void;
}

/** What the session lends an attach: the tab's name and its callbacks into the session. */
export interface AttachWith {
  host: TabHost;
  gate: PolicyGate;
  setups: TabSetups;
  /** The tab as the agents name it ("tab t2"), for refusals. */
  named: string;
  /** The dialog an earlier run of the host saw open on the tab, if any. */
  savedDialog: SavedDialog | undefined;
  onPersonStop: () => void;
  agentDrives: () => boolean;
  /** The debugger let go of the tab (or the tab never answered): the session drops its context. */
  detach: () => void;
}

export async function attachTab(hostId: string, w: AttachWith): Promise<AttachedTab> {
  // Judged before the debugger touches the tab: a tab showing a site the person did not allow is never attached.
  const shown = (await w.host.list()).find((tab) => tab.id === hostId);
  if (shown) w.gate.requireBeforeAttach(shown.url, `Tab ${w.named}`);
  const cdp = await w.host.cdp(hostId);
  const page = new PageContext(cdp, w.gate, w.onPersonStop, w.agentDrives);
  // A detached debugger (tab closed, browser gone, DevTools took over) leaves a dead context: drop it so the
  // next call attaches afresh.
  const stop = cdp.on((event) => {
    if (event.method === 'Inspector.detached' && event.sessionId === undefined) w.detach();
  });
  const ready = page.frames.init();
  try {
    // A tab that does not answer soon is held by a dialog shown before we attached (dialogs.ts): the context serves
    // at once, every call naming that dialog, and the tab's answer, once it comes, lets them run.
    const answered = ready.then(() => false);
    // Past the deadline its failure is the detach below's to handle.
    answered.catch(() => undefined);
    let held = await withDeadline(answered, HELD_AT_ATTACH_MS, () => true);
    // A tab with no page of its own yet (still opening) holds no dialog: it is waited for, as any slow tab is.
    if (held && !(await page.dialogs.mayHoldDialog())) held = await answered;
    if (held) {
      page.dialogs.heldAtAttach(w.savedDialog);
      ready.then(
        () => page.dialogs.answeredAfterAttach(),
        () => w.detach(),
      );
    }
    // Once the tab answers, and before the context serves a call when it answers at once (tab-setups.ts).
    const restored = ready.then(() => w.setups.restore(hostId, page)).catch(() => undefined);
    // What an agent's script left in the tab before this attachment is followed as if its eval had just run.
    const trailed = ready.then(() => followScriptedBefore(page)).catch(() => undefined);
    if (!held) await Promise.all([restored, trailed]);
  } catch (error) {
    stop();
    page.dispose();
    throw error;
  }
  return { page, stop };
}

/** Follows the trail of a script the host says ran before this attachment; the host's hold may go once it stands. */
async function followScriptedBefore(page: PageContext): Promise<void> {
  const { scriptedBefore } = page.cdp;
  if (!scriptedBefore) return;
  await page.trail.follow();
  scriptedBefore.following();
}

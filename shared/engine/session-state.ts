// What a TabSession keeps across restarts of the process hosting it (an MV3 worker is stopped at will), and the
// hook a host gives it to store that state; the fallback keeps everything in memory and passes no store.
import type { SavedCurrents } from './agent-currents.js';
import type { DialogKind } from './dialogs.js';
import type { Route } from './network-routes.js';

/** With each agent's current tab (SavedCurrents): losing it would send the agent's next call to the person's active tab. */
export interface TabSessionState extends SavedCurrents {
  /** The tag the handles were minted under: a session with another tag keeps the tabs but mints new handles. */
  tag: string;
  handles: Array<[hostId: string, handle: string]>;
  nextHandle: number;
  /** Tabs the agents opened, so they may still close them after a restart. */
  owned: string[];
  /** The dialog open on each tab, so a restarted host names one it can no longer see by its words (dialogs.ts). */
  dialogs?: Array<[hostId: string, dialog: SavedDialog]>;
  /** What the agents set up on each tab that lives only in the host, so a restarted host tells the next call there. */
  setups?: Array<[hostId: string, setup: SavedSetup]>;
}

/**
 * A tab's routes and performance trace: the host's memory and its debugger attachment hold them, and a restarted
 * host (which detaches what it left attached) has neither. It sets the kept routes again (tab-setups.ts) and names
 * the rest as lost.
 */
export interface SavedSetup {
  /** Routes it cannot set again, by id and glob as `network_route list` names them (`r1 * *api/messages*`). */
  routes: string[];
  tracing: boolean;
  /** Routes whole (a mock's body included), newest first, to set again on the tab when the host attaches it anew. */
  kept?: Route[];
}

export interface SavedDialog {
  kind: DialogKind;
  message: string;
}

export interface TabSessionStore {
  /** What an earlier run saved, read before the session starts. */
  initial?: TabSessionState;
  /** Called after each change; the store decides how and when to write. */
  save(state: TabSessionState): void;
}

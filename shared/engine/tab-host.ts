// What a backend offers the engine about tabs: list, open, close, focus, a CDP handle for one tab, and word of popups.
import type { Policy } from '../policy/policy.js';
import type { Cdp, CdpEvent } from './cdp.js';
import type { PopupJudgement } from './popup-events.js';

export interface HostTab {
  /** Backend-native id (a CDP target id, a chrome.tabs id as text). */
  id: string;
  url: string;
  title: string;
  active: boolean;
}

/** A tab that a page in an attached tab opened (window.open, a target=_blank link or form). */
export interface Popup {
  id: string;
  openerId: string;
  /** Where it is going, when the host learns that before it is attached; undefined while it has loaded nothing. */
  url?: string;
  /**
   * Emits into the opener's stream, where its trail hears it. Given by a host that attaches a popup only once it runs
   * (chrome.debugger), whose own hold of what the opener's agent script sends it ends with the script's activation: the
   * engine then follows the popup for that script (popup-trail.ts), which may keep a handle on it and drive it later.
   * The fallback follows its popups itself, from before their first request; Electron's have no opener to be driven by.
   */
  tellOpener?: (event: CdpEvent) => void;
  /** What an earlier follow judged it by, when the host kept that across a re-attach: followed by it, as before. */
  kept?: PopupJudgement;
  /** Hears what the engine follows it by, as it starts and on each change, for the host to keep (popup-events.ts). */
  keep?: (judgement: PopupJudgement) => void;
}

export interface TabHost {
  /**
   * The browser is the person's own (their Chrome through the extension): a tab no agent opened is theirs, keeps the
   * size they gave it, and a dialog that opens by itself on a tab no agent drives is theirs to answer. Absent: a
   * browser we launched, every tab and dialog of which is the agents'.
   */
  readonly personsTabs?: true;
  list(): Promise<HostTab[]>;
  /** Opens a tab; in the background unless `focus`. */
  create(url: string, opts: { focus: boolean }): Promise<HostTab>;
  close(id: string): Promise<void>;
  activate(id: string): Promise<void>;
  /** The attached debugger for a tab; attaching once and reusing is the host's job. */
  cdp(id: string): Promise<Cdp>;
  /**
   * Calls `listener` for each popup an attached tab opens, for the engine to attach to it; returns the unsubscribe. A
   * host that can hold a popup before its first request (the fallback) guards it before letting it run; one that
   * cannot (chrome.debugger) calls the listener as soon as it learns of the popup, which may already be loading.
   */
  onPopup(listener: (popup: Popup) => Promise<void>): () => void;
  /**
   * The tabs an agent's script ran in that no engine follows now (a restarted extension worker, a session that ended),
   * for the engine to attach once it knows the policy: it follows what the script left there (Cdp.scriptedBefore).
   */
  scriptedTabs?(): Promise<string[]>;
  /**
   * Settles at the tab's next change the host hears of (it updated, its debugger let go, it closed), or after `ms`:
   * when an attach refused a moment ago is worth trying again. Absent: after `ms`.
   */
  nextChange?(id: string, ms: number): Promise<void>;
  /**
   * Runs an act in `openerId` with the first request of any window it opens held to what `policy` lets the agent read.
   * Only a host whose onPopup comes too late to stop that request (chrome.debugger) needs it; the fallback holds
   * popups before they run, with browser-level auto-attach.
   */
  holdNewWindows?<T>(openerId: string, policy: Policy, run: () => Promise<T>): Promise<T>;
}

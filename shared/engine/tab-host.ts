// What a backend offers the engine about tabs: list, open, close, focus, and a CDP handle for one tab.
import type { Cdp } from './cdp.js';

export interface HostTab {
  /** Backend-native id (a CDP target id, a chrome.tabs id as text). */
  id: string;
  url: string;
  title: string;
  active: boolean;
}

export interface TabHost {
  list(): Promise<HostTab[]>;
  /** Opens a tab; in the background unless `focus`. */
  create(url: string, opts: { focus: boolean }): Promise<HostTab>;
  close(id: string): Promise<void>;
  activate(id: string): Promise<void>;
  /** The attached debugger for a tab; attaching once and reusing is the host's job. */
  cdp(id: string): Promise<Cdp>;
}

// The tabs an act opens (window.open, a target=_blank link or form, popups too), for its result: `→ new tab <id> <url>`.
import type { CdpEvent } from './cdp.js';
import type { PageContext } from './page-context.js';
import type { Popup } from './tab-host.js';

// The browser makes the new tab before the act's input is answered, but a host may tell of it a moment later (the
// extension's webNavigation event, the fallback's guard going on first).
const ANNOUNCE_MS = 2_000;

export interface OpenedTab {
  hostId: string;
  /** Where it is going: the URL the opener asked for, the host's, or '' for a blank window. */
  url: string;
}

/**
 * Watches one act in one tab: the page's own word that it opens a window (Page.windowOpen, from any of its frames, with
 * the URL), and the host's word of the tab that came of it. Paired in order: one act seldom opens two.
 */
export class NewTabs {
  private readonly asked: string[] = [];
  private readonly arrived: Popup[] = [];
  private wake: (() => void) | undefined;
  private readonly unsubscribe: () => void;

  /** `popups`: subscribes to the tabs the session hears were opened, returning the unsubscribe. */
  constructor(
    page: PageContext,
    private readonly openerId: string,
    popups: (listener: (popup: Popup) => void) => () => void,
  ) {
    const offPage = page.cdp.on((event: CdpEvent) => {
      if (event.method === 'Page.windowOpen') this.asked.push(String(event.params['url'] ?? ''));
    });
    const offPopups = popups((popup) => {
      if (popup.openerId !== this.openerId) return;
      this.arrived.push(popup);
      this.wake?.();
    });
    this.unsubscribe = () => {
      offPage();
      offPopups();
    };
  }

  /** After the act: the tabs it opened, once the host has told of each the page asked for (bounded). */
  async settle(): Promise<OpenedTab[]> {
    if (this.arrived.length < this.asked.length) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ANNOUNCE_MS);
        this.wake = () => {
          if (this.arrived.length < this.asked.length) return;
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.dispose();
    return this.arrived.map((popup, index) => ({ hostId: popup.id, url: this.asked[index] || popup.url || '' }));
  }

  dispose(): void {
    this.wake = undefined;
    this.unsubscribe();
  }
}

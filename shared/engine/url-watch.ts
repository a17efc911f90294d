// Notices when an act (a click on a link, Enter in a search box) navigates the tab, and reports the new URL.
import type { ActFlush } from './act-flush.js';
import type { CdpEvent } from './cdp.js';
import { withDeadline } from './deadline.js';
import type { PageContext } from './page-context.js';

// A navigation an act causes (a link's click) is a task the renderer runs after the act's last command answered;
// one round trip through the renderer lets its navigation events arrive first. A busy page gets this long: a second,
// as a 250 ms bound lost a link's navigation on a loaded 2-core box (the round trip itself took longer).
const FLUSH_MS = 1_000;

// An act that starts a navigation waits this long at most for the new document to commit and parse; a slower
// page is still reported with whatever URL the tab has by then, and `wait_for` can take it from there.
const SETTLE_MS = 5_000;

export class UrlWatch {
  /** A main-frame navigation started and has not committed (or been abandoned) yet. */
  private navigating = false;
  /** The new document committed and has not fired DOMContentLoaded yet. */
  private parsing = false;
  private wake: (() => void) | undefined;
  private readonly unsubscribe: () => void;

  private constructor(
    private readonly page: PageContext,
    private readonly mainFrameId: string,
    private readonly before: string,
    private readonly input: number,
  ) {
    this.unsubscribe = page.cdp.on((event) => this.onEvent(event));
  }

  static async start(page: PageContext): Promise<UrlWatch> {
    const { id, url } = await page.frames.mainFrameUrl();
    return new UrlWatch(page, id, url, page.input.mark());
  }

  /** After the act: lets a navigation it started commit, then answers the new URL if the tab moved. */
  async settle(flush: ActFlush): Promise<string | undefined> {
    // The act's own read-back after its last input (type's) already made that round trip.
    if (!this.page.input.readSince(this.input)) await withDeadline(flush.through(undefined), FLUSH_MS, () => undefined);
    if (this.navigating || this.parsing) {
      await new Promise<void>((resolve) => {
        const finish = () => {
          clearTimeout(timer);
          this.wake = undefined;
          resolve();
        };
        const timer = setTimeout(finish, SETTLE_MS);
        this.wake = () => {
          if (!this.navigating && !this.parsing) finish();
        };
      });
    }
    this.dispose();
    // Followed through navigation events: no round trip, which matters most over chrome.debugger.
    const { url } = await this.page.frames.mainFrameUrl();
    return url !== this.before ? url : undefined;
  }

  dispose(): void {
    this.unsubscribe();
  }

  private onEvent(event: CdpEvent): void {
    if (event.sessionId !== undefined) return;
    const params = event.params;
    // A "leave site?" guard answered "stay" cancels the navigation with no navigation event: nothing more will commit.
    if (event.method === 'Page.javascriptDialogClosed' && params['result'] === false && this.navigating) {
      this.navigating = false;
      return this.wake?.();
    }
    const frameId = event.method === 'Page.frameNavigated' ? (params['frame'] as { id: string }).id : params['frameId'];
    if (frameId !== this.mainFrameId && event.method !== 'Page.domContentEventFired') return;
    switch (event.method) {
      case 'Page.frameRequestedNavigation':
        if (params['disposition'] === 'currentTab') this.navigating = true;
        break;
      case 'Page.frameStartedNavigating':
        if (params['navigationType'] === 'differentDocument') this.navigating = true;
        break;
      case 'Page.frameNavigated':
        this.navigating = false;
        this.parsing = true;
        break;
      case 'Page.domContentEventFired':
        this.parsing = false;
        break;
      case 'Page.navigatedWithinDocument':
      case 'Page.frameStoppedLoading':
      case 'Page.downloadWillBegin':
        this.navigating = false;
        break;
      default:
        return;
    }
    this.wake?.();
  }
}

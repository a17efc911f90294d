// The windows a driven tab opens while an agent's script there is held (or while no worker follows it, after a stopped
// worker drove it): kept in the script hold's rules, and each of their navigations the rules blocked named to the
// opener's trail (as the fallback's popup guard names it, popup-trail.ts), with its method when the opener's session
// told it, the window, left on Chrome's error page, closed.
import { POPUP_HELD } from '../../shared/engine/popup-events.js';
import type { NewWindowHolds } from './new-window-hold.js';

/** The form submissions remembered per opener, to find the method of a blocked window's request. */
const FORMS_KEPT = 8;
const FORM_METHODS = new Map([
  ['formSubmissionPost', 'POST'],
  ['formSubmissionGet', 'GET'],
]);

interface ScriptWindow {
  openerId: number;
  /** When its latest navigation started (at first, when Chrome opened it): the rules met that navigation since. */
  started: number;
  /** Opened while no worker followed its opener: the rules that blocked it were a stopped worker's (`stray`). */
  stray?: true;
}

export class ScriptWindows {
  private readonly windows = new Map<number, ScriptWindow>();
  private readonly forms = new Map<number, { url: string; method: string }[]>();
  private listening = false;

  /** `tell`: hands a pseudo-event to the opener's stream, where its trail hears it. */
  constructor(
    private readonly holds: NewWindowHolds,
    private readonly tell: (openerId: number, method: string, params: Record<string, unknown>) => void,
  ) {}

  /**
   * webNavigation.onCreatedNavigationTarget of a driven opener. Any window opened while its script hold stood is the
   * script's as far as can be told, whatever URL it opened at: a script may navigate a window it opened later on (a
   * form posted into a window it named, `w.location = …` on a blank one).
   */
  opened(details: { sourceTabId: number; tabId: number; timeStamp: number }): void {
    // Judged by when Chrome opened it: its word may come after the hold ended, and the rules held it all the same.
    if (!this.holds.scriptStood(details.sourceTabId, details.timeStamp)) return;
    this.windows.set(details.tabId, { openerId: details.sourceTabId, started: details.timeStamp });
    this.holds.scriptOpened(details.tabId, details.sourceTabId);
  }

  /**
   * webNavigation.onCreatedNavigationTarget of an opener no attachment of this worker follows. One a stopped worker
   * drove (among `stale`, the tabs this worker let go of at its start) may be running what an agent's script left there,
   * and a window it opens meets the rules that worker left standing (or this worker's): its page they blocked is named
   * to the opener as the script's, even one blocked before this worker heard of the window (Chrome tells a stopped
   * worker nothing of it). Not told apart: a page of it that failed for another reason as it opened.
   */
  stray(details: { sourceTabId: number; tabId: number; timeStamp: number }, stale: Promise<ReadonlySet<number>>): void {
    void stale.then(async (tabIds) => {
      if (!tabIds.has(details.sourceTabId)) return;
      this.windows.set(details.tabId, { openerId: details.sourceTabId, started: details.timeStamp, stray: true });
      this.listen();
      const frame = await chrome.webNavigation.getFrame({ tabId: details.tabId, frameId: 0 }).catch(() => undefined);
      if (frame?.errorOccurred && this.windows.get(details.tabId)?.stray) this.name(details.tabId, frame.url);
    });
  }

  /**
   * Page.frameRequestedNavigation in an opener's session. A form posted into a window the page named says its method
   * here (measured on Chromium 156: reason formSubmissionPost, disposition currentTab, the window's frame id); one with
   * target=_blank says nothing at all, and its window's request is named with no method.
   */
  requested(openerId: number, params: Record<string, unknown>): void {
    const method = FORM_METHODS.get(String(params['reason']));
    if (method === undefined) return;
    const forms = [...(this.forms.get(openerId) ?? []), { url: String(params['url']), method }];
    this.forms.set(openerId, forms.slice(-FORMS_KEPT));
  }

  /** The tab is gone, as a window or as an opener. */
  ended(tabId: number): void {
    this.windows.delete(tabId);
    this.forms.delete(tabId);
  }

  /*
   * From the first script on (before any window it opens, whose error may follow at once); added on first use, not at
   * the worker's top level, so the person's browsing never wakes a stopped worker for them.
   */
  listen(): void {
    if (this.listening) return;
    this.listening = true;
    chrome.webNavigation.onBeforeNavigate.addListener((details) => {
      const window = this.windows.get(details.tabId);
      if (window && details.frameId === 0) window.started = details.timeStamp;
    });
    chrome.webNavigation.onErrorOccurred.addListener((details) => this.failed(details));
  }

  private failed(details: chrome.webNavigation.WebNavigationFramedErrorCallbackDetails): void {
    const window = this.windows.get(details.tabId);
    if (!window || details.frameId !== 0 || !/ERR_BLOCKED_BY_CLIENT/.test(details.error)) return;
    // Only when a script hold that refuses this URL stood while the navigation ran, whenever this is heard.
    if (!window.stray && !this.holds.heldForScript(window.openerId, details.url, window.started, details.timeStamp))
      return;
    this.name(details.tabId, details.url);
  }

  /** The window's navigation to `url` was held: named to its opener, and the window, left on an error page, closed. */
  private name(tabId: number, url: string): void {
    const window = this.windows.get(tabId);
    if (!window) return;
    const method = this.forms.get(window.openerId)?.findLast((form) => form.url === url)?.method;
    this.tell(window.openerId, POPUP_HELD, { ...(method ? { method } : {}), url, kind: 'navigation' });
    this.windows.delete(tabId);
    void chrome.tabs.remove(tabId).catch(() => undefined);
  }
}

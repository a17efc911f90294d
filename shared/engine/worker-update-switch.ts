// Chromium's "update on reload" switch, which a service worker's session where a request paused turns on as it goes:
// the tab turns it off again after each such session goes, and lets those sessions go itself before it closes.
import type { Cdp, CdpEvent } from './cdp.js';

/**
 * Measured (Chromium 156, launched over its pipe): once a service worker's session on which Fetch answered one of its
 * requests (fulfilled or failed it, as routes do) is gone, each later page load in the worker's scope waits while a new
 * version installs and activates (~1–4 s; once a 30 s timeout through the extension on a loaded box), until
 * `ServiceWorker.setForceUpdateOnPageLoad` false comes from a page's session: the browser's "update on reload" switch,
 * which holds for every service worker of the profile. Sent before that session went, it does not stay off; sent on a
 * closing tab, it never arrives. A session where requests only went on as they were leaves it off; it is let go anyway.
 */
export class WorkerUpdateSwitch {
  /** The tab's service worker sessions on which a request paused (what answered it is not ours to see). */
  private readonly paused = new Set<string>();
  private readonly unsubscribe: () => void;
  private switchable?: Promise<boolean>;

  constructor(
    private readonly cdp: Cdp,
    private readonly isServiceWorker: (sessionId: string) => boolean,
  ) {
    this.unsubscribe = cdp.on((event) => this.onEvent(event));
  }

  /** Lets those sessions go, then turns the switch off from the tab's own session: call while the tab still answers. */
  async release(): Promise<void> {
    const sessions = [...this.paused];
    if (sessions.length === 0) return;
    this.paused.clear();
    await Promise.all(
      sessions.map((sessionId) => this.cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined)),
    );
    await this.switchOff();
  }

  /**
   * Whether this backend can turn the switch off at all (asked once; turning it off when off changes nothing). Through
   * chrome.debugger it cannot ('wasn't found'): there a route must not answer a worker's request itself, or every
   * service worker site of the person's browser would force updates until Chrome restarts.
   */
  canSwitchOff(): Promise<boolean> {
    this.switchable ??= this.cdp
      .send('ServiceWorker.setForceUpdateOnPageLoad', { forceUpdateOnPageLoad: false })
      .then(() => true)
      .catch(() => false);
    return this.switchable;
  }

  /** A tab we stop driving (still open): its sessions go now, and the switch with them. */
  dispose(): void {
    void this.release();
    this.unsubscribe();
  }

  private onEvent(event: CdpEvent): void {
    if (event.method === 'Fetch.requestPaused' && event.sessionId !== undefined) {
      if (this.isServiceWorker(event.sessionId)) this.paused.add(event.sessionId);
    } else if (event.method === 'Target.detachedFromTarget') {
      // The worker stopped, or a newer version took its place, while the tab lives on.
      if (this.paused.delete(String(event.params['sessionId']))) void this.switchOff();
    }
  }

  private switchOff(): Promise<void> {
    return this.cdp
      .send('ServiceWorker.setForceUpdateOnPageLoad', { forceUpdateOnPageLoad: false })
      .then(() => undefined)
      .catch(() => undefined);
  }
}

// Word of a tab's next change (chrome.tabs.onUpdated, chrome.debugger.onDetach, its close), for an attach refused a
// moment ago to try again then rather than on a guess: another debugger letting go is announced by none, so a wait
// bounds it too.
export class TabChanges {
  private readonly waiting = new Map<number, Set<() => void>>();
  // Heard only while an attach waits: a listener at the worker's top level would wake it at every load of every tab.
  private readonly updated = (tabId: number, change: chrome.tabs.OnUpdatedInfo) => {
    // Loading started or finished: an attach refused while the tab was busy may pass now.
    if (change.status !== undefined) this.changed(tabId);
  };

  /** Settles at the tab's next change, or after `ms`. */
  next(tabId: number, ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.waiting.size === 0) chrome.tabs.onUpdated.addListener(this.updated);
      const waiters = this.waiting.get(tabId) ?? new Set<() => void>();
      this.waiting.set(tabId, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0 && this.waiting.get(tabId) === waiters) this.waiting.delete(tabId);
        if (this.waiting.size === 0) chrome.tabs.onUpdated.removeListener(this.updated);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiters.add(done);
    });
  }

  /** The tab changed (its debugger let go, it closed): its waiting attaches try again. */
  changed(tabId: number): void {
    for (const done of [...(this.waiting.get(tabId) ?? [])]) done();
  }
}

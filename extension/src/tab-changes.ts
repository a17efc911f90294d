// Word of a tab's next change (chrome.tabs.onUpdated, chrome.debugger.onDetach, its close), for an attach refused a
// moment ago to try again then rather than on a guess: another debugger letting go is announced by none, so a wait
// bounds it too.
export class TabChanges {
  private readonly waiting = new Map<number, Set<() => void>>();

  /** Settles at the tab's next change, or after `ms`. */
  next(tabId: number, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.waiting.get(tabId) ?? new Set<() => void>();
      this.waiting.set(tabId, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0 && this.waiting.get(tabId) === waiters) this.waiting.delete(tabId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiters.add(done);
    });
  }

  changed(tabId: number): void {
    for (const done of [...(this.waiting.get(tabId) ?? [])]) done();
  }
}

// What a host lent a tab's engine (Cdp.lendWorkers), kept by the tab's handle: a tab that goes gives it all back.
export class GiveBacks {
  private readonly open = new Set<() => void>();

  /** Keeps `giveBack` until the returned function or `all` calls it, once. */
  keep(giveBack: () => void): () => void {
    this.open.add(giveBack);
    return () => {
      if (this.open.delete(giveBack)) giveBack();
    };
  }

  /** The tab went: nothing is left lent to it. */
  all(): void {
    const open = [...this.open];
    this.open.clear();
    for (const giveBack of open) giveBack();
  }
}

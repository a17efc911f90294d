// The URL of each tab's top document, asked of chrome.tabs.get once and kept until any sign that the document may
// change: an agent's script would otherwise wait for that ask before every eval (0.4–0.7 ms of the eval's own path on
// this box, measured with scripts/bench/extension-hops.ts).

/**
 * Every navigation event forgets, none sets. Chrome dispatches a navigation's start (webNavigation.onBeforeNavigate)
 * from the browser before it sends the new document to the renderer, so the worker hears it before that document can
 * answer the engine's check, which an agent's script is bound to (judged-document.ts): a URL kept here is the judged
 * document's, as tabs.get's was. What is not known is asked for, and an answer to an ask that a later event overtook is
 * used once but not kept. Only tabs asked about take room.
 */
export class TopUrls {
  private readonly known = new Map<number, string>();
  /** The ask in flight per tab; an event drops it, so its answer is not kept. */
  private readonly asking = new Map<number, symbol>();
  private listening = false;

  /** The tab's top URL ('' when Chrome tells none: a closed tab, a page the extension may not see). */
  async url(tabId: number): Promise<string> {
    this.listen();
    const known = this.known.get(tabId);
    if (known !== undefined) return known;
    const ask = Symbol('ask');
    this.asking.set(tabId, ask);
    const url = await chrome.tabs.get(tabId).then(
      (tab) => tab.url,
      () => undefined,
    );
    if (this.asking.get(tabId) === ask) {
      this.asking.delete(tabId);
      if (url !== undefined) this.known.set(tabId, url);
    }
    return url ?? '';
  }

  /** The tab's top document may change or has (a navigation started or committed, its URL changed, it closed). */
  changed(tabId: number): void {
    this.known.delete(tabId);
    this.asking.delete(tabId);
  }

  /**
   * Not at the worker's top level, on purpose: what is kept here dies with the worker, so a stopped worker needs no
   * word of a navigation, and top-level listeners would start the person's extension worker for every navigation of
   * every tab. Added before the first ask, so no event after it is missed.
   */
  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    const top = ({ tabId, frameId }: { tabId: number; frameId: number }) => {
      if (frameId === 0) this.changed(tabId);
    };
    chrome.webNavigation.onBeforeNavigate.addListener(top);
    chrome.webNavigation.onCommitted.addListener(top);
    chrome.tabs.onUpdated.addListener((tabId, change) => {
      if (change.url !== undefined) this.changed(tabId);
    });
    chrome.tabs.onReplaced.addListener((added, removed) => {
      this.changed(added);
      this.changed(removed);
    });
    chrome.tabs.onRemoved.addListener((tabId) => this.changed(tabId));
  }
}

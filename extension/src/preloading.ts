// Chrome's "Preload pages" setting, turned off before the first script of the agent's runs in the person's Chrome.
//
// A speculation rule's prefetch or prerender is sent by the browser itself, which neither the debugger's Fetch and
// Network rules nor a declarativeNetRequest block stop (measured on Chromium 150): a script of the agent's could send
// page data with one, or add a link the page's own document rule prefetches. So preloading goes off before any script
// of the agent's runs, and stays off (Chrome gives the setting back when the extension is disabled or removed); a person
// who never lets an agent run a script keeps it.
export class PreloadingSwitch {
  private turned: Promise<void> | undefined;

  /** Settles once the setting is off; asked again only after a refusal (a policy of the person's may control it). */
  off(): Promise<void> {
    this.turned ??= Promise.resolve()
      .then(() => chrome.privacy.network.networkPredictionEnabled.set({ value: false }))
      .catch((error: unknown) => {
        this.turned = undefined;
        throw error;
      });
    return this.turned;
  }
}

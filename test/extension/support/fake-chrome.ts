// A thin stand-in for the chrome.* calls the extension's tab host makes, for what the real browser cannot be made to
// do on cue (deliver its word of a window late): events fired by the test, session rules and closed tabs kept to read.
/// <reference types="chrome" />

type Listener = (...args: never[]) => void;

/** One chrome event: listeners added by the code under test, fired by the test. */
class FakeEvent<L extends Listener> {
  private readonly listeners: L[] = [];
  addListener(listener: L): void {
    this.listeners.push(listener);
  }
  hasListener(listener: L): boolean {
    return this.listeners.includes(listener);
  }
  removeListener(listener: L): void {
    const at = this.listeners.indexOf(listener);
    if (at >= 0) this.listeners.splice(at, 1);
  }
  fire(...args: Parameters<L>): void {
    for (const listener of this.listeners) listener(...args);
  }
}

export interface FakeChrome {
  /** The session rules as the code left them. */
  rules: chrome.declarativeNetRequest.Rule[];
  /** Tabs the code closed. */
  removed: number[];
  errorOccurred: FakeEvent<(details: chrome.webNavigation.WebNavigationFramedErrorCallbackDetails) => void>;
}

/**
 * Installs a fake `chrome` with the given open tabs (id → top frame URL) and returns what it records. Calls nothing
 * here answers (attach, commands) resolve empty.
 */
export function installFakeChrome(tabs: ReadonlyMap<number, string>): FakeChrome {
  const fake: FakeChrome = { rules: [], removed: [], errorOccurred: new FakeEvent() };
  const event = () => new FakeEvent();
  const api = {
    debugger: {
      getTargets: async () => [],
      attach: async () => undefined,
      detach: async () => undefined,
      sendCommand: async () => ({}),
    },
    declarativeNetRequest: {
      getSessionRules: async () => fake.rules,
      updateSessionRules: async (update: chrome.declarativeNetRequest.UpdateRuleOptions) => {
        fake.rules = [
          ...fake.rules.filter((rule) => !update.removeRuleIds?.includes(rule.id)),
          ...(update.addRules ?? []),
        ];
      },
    },
    // "Preload pages" as the extension leaves it where nothing else holds it: off, and its own.
    privacy: {
      network: {
        networkPredictionEnabled: {
          get: async () => ({ value: false, levelOfControl: 'controlled_by_this_extension' }),
          set: async () => undefined,
        },
      },
    },
    tabs: {
      TAB_ID_NONE: -1,
      onCreated: event(),
      onReplaced: event(),
      onRemoved: event(),
      query: async () => [...tabs.keys()].map((id) => ({ id })),
      get: async (id: number) => ({ id, url: tabs.get(id) }),
      remove: async (id: number) => void fake.removed.push(id),
    },
    webNavigation: {
      onCommitted: event(),
      onBeforeNavigate: event(),
      onErrorOccurred: fake.errorOccurred,
      getAllFrames: async ({ tabId }: { tabId: number }) => [{ frameId: 0, url: tabs.get(tabId) }],
    },
  };
  (globalThis as { chrome?: unknown }).chrome = api;
  return fake;
}

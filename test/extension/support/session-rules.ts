// The extension's declarativeNetRequest session rules as its worker has them, for the holds that stand in them.
import type { ExtensionBrowser } from '../../support/extension-browser.js';

/** How many session rules name the tab: the holds that stand while no engine follows it. */
export const rulesFor = (browser: ExtensionBrowser, tabId: number) =>
  browser.evaluate<number>(
    `chrome.declarativeNetRequest.getSessionRules().then((rules) => rules.filter((rule) =>
      rule.condition.tabIds?.includes(${tabId})).length)`,
  );

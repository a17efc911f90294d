// The person closes the tab after the agent's script left a listener on the page's unload, in the person's Chrome
// through the real extension: the keepalive fetch and the beacon that listener sends (the page's key in both) reach no
// one (both got out before the hold stood at such a listener).
import { describe, expect, it } from 'vitest';
import { pageGoodbye, scriptGoodbye, scriptSendsArrived } from '../support/unload-sends.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();

describe('a script’s unload listener, through the extension', () => {
  it('the person closes the tab: what the listener sends reaches no one', async () => {
    await egress.asPage(pageGoodbye(egress.watched));
    await egress.run(scriptGoodbye(egress.watched));
    const tabId = await egress.linked.browser.evaluate<number>(
      `chrome.tabs.query({ url: '*://127.0.0.1/*egress-late*' }).then((tabs) => tabs[0].id)`,
    );
    await egress.linked.browser.evaluate(`chrome.tabs.remove(${tabId})`);
    expect(await scriptSendsArrived(egress.watched)).toEqual([]);
  });
});

// The person closes the tab after the agent's script left a listener on the page's unload, on real Chromium: the
// keepalive fetch and the beacon that listener sends (the page's key in both) reach no one (both got out before the hold
// stood at such a listener). The page's goodbye, registered after the script's, tells when the unload is over.
import { describe, expect, it } from 'vitest';
import { pageGoodbye, scriptGoodbye, scriptSendsArrived } from '../support/unload-sends.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const engine = watchedEngineTab();

describe('a script’s unload listener', () => {
  it('the person closes the tab: what the listener sends reaches no one', async () => {
    await engine.run(scriptGoodbye(engine.watched));
    await engine.asPage(pageGoodbye(engine.watched));
    await engine.suite.browser.browser.connection.send('Target.closeTarget', { targetId: engine.tabId });
    expect(await scriptSendsArrived(engine.watched)).toEqual([]);
  });
});

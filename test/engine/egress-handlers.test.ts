// Inline event handlers and listeners an agent's script leaves in the page, on real Chromium: a handler's code is
// compiled from the attribute when its event fires and names no one on its stack, so the page's Trusted Types policy
// tells who wrote it (handler-setters.ts); the page's own handlers and HTML strings, after an eval, keep working.
import { describe, expect, it } from 'vitest';
import { loadUrl } from '../support/browser.js';
import { handlerCases } from '../support/late-handlers.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const engine = watchedEngineTab();

describe('an inline handler the script leaves in the page', () => {
  it('inserted during the eval: its fetch is held, and named', () => handlerCases.insertedByEval(engine));

  it('inserted by a timer the script left: its fetch is held, and named', () => handlerCases.insertedByTimer(engine));

  it('on an image never inserted, calling the page’s own send: held, and named', () =>
    handlerCases.neverInserted(engine));
});

describe('what the script leaves calling the page’s own send', () => {
  it('a listener it added, when the page fires the event later: held, and named', () =>
    handlerCases.listenerCallsPageSend(engine));

  it('a handler it writes after replacing what the policy calls: held, and named', () =>
    handlerCases.afterBlinding(engine));
});

describe('the page’s own inline handlers, after an eval', () => {
  it('one the page inserts sends to another origin', () => handlerCases.pageOwn(engine));

  it('one it sets by setAttribute sends to another origin', () => handlerCases.pageOwnAttribute(engine));

  it('a blank frame it makes takes HTML strings as before', () => handlerCases.pageBlankFrame(engine));
});

describe('a page with a default policy of its own, after an eval', () => {
  it('keeps it, and its HTML strings', async () => {
    await loadUrl(engine.page, engine.suite.server.url('egress-own-policy.html'));
    await engine.run('1');
    const after = await engine.asPage(`(() => { document.getElementById('out').innerHTML = '<i>own</i>';
      return [window.ownPolicyCalls, document.getElementById('out').innerHTML]; })()`);
    expect(after).toEqual([1, '<i>own</i>']);
  });
});

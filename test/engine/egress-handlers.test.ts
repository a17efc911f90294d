// Inline event handlers and listeners an agent's script leaves in the page, on real Chromium: a handler's code is
// compiled from the attribute when its event fires and names no one on its stack, so the page's Trusted Types policy
// tells who wrote it (handler-setters.ts); the page's own handlers and HTML strings, after an eval, keep working.
import { describe, it } from 'vitest';
import { handlerDocumentCases } from '../support/late-handler-documents.js';
import { handlerCases } from '../support/late-handlers.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const engine = watchedEngineTab();

describe('an inline handler the script leaves in the page', () => {
  it('inserted during the eval: its fetch is held, and named', () => handlerCases.insertedByEval(engine));

  it('inserted by a timer the script left: its fetch is held, and named', () => handlerCases.insertedByTimer(engine));

  it('on an image never inserted, calling the page’s own send: held, and named', () =>
    handlerCases.neverInserted(engine));

  it('on an image the page clones later: the clone’s send held, and named', () => handlerCases.clonedByPage(engine));
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

  it('it finds no default policy where it made none', () => handlerCases.pageSeesNoDefaultPolicy(engine));
});

describe('a page with a default policy of its own, loaded after an eval', () => {
  it('the script’s innerHTML there: its policy called, the handler’s fetch held', () =>
    handlerDocumentCases.ownPolicyInserted(engine));

  it('the script’s setAttribute there: its policy called, the handler’s send held', () =>
    handlerDocumentCases.ownPolicyAttribute(engine));

  it('the page’s own handler there sends, its HTML strings through its own policy', () =>
    handlerDocumentCases.ownPolicyPageOwn(engine));
});

describe('a frame of the site navigated after the eval', () => {
  // The frame's commit drops DOM breakpoints on detached nodes (measured on Chromium 156): the policy pauses on a
  // `debugger;` statement instead, which no commit drops, so a write as the new document loads is heard too.
  it('a handler a timer of the script’s writes into its new document as it loads: held, and named', () =>
    handlerDocumentCases.navigatedFrame(engine));

  it('one the page writes there after navigating it sends', () => handlerDocumentCases.pageNavigatedFrame(engine));
});

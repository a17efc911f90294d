// Inline event handlers and listeners an agent's script leaves in the page, in the person's Chrome through the real
// extension (as the engine's egress-handlers test does in the fallback): held and named; the page's own keep working.
import { describe, it } from 'vitest';
import { handlerDocumentCases } from '../support/late-handler-documents.js';
import { handlerCases } from '../support/late-handlers.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();

describe('an inline handler the script leaves in the page, through the extension', () => {
  it('inserted during the eval: its fetch is held, and named', () => handlerCases.insertedByEval(egress));

  it('inserted by a timer the script left: its fetch is held, and named', () => handlerCases.insertedByTimer(egress));

  it('on an image never inserted, calling the page’s own send: held, and named', () =>
    handlerCases.neverInserted(egress));

  it('on an image the page clones later: the clone’s send held, and named', () => handlerCases.clonedByPage(egress));
});

describe('what the script leaves calling the page’s own send, through the extension', () => {
  it('a listener it added, when the page fires the event later: held, and named', () =>
    handlerCases.listenerCallsPageSend(egress));

  it('a handler it writes after replacing what the policy calls: held, and named', () =>
    handlerCases.afterBlinding(egress));
});

describe('the page’s own inline handlers, after an eval, through the extension', () => {
  it('one the page inserts sends to another origin', () => handlerCases.pageOwn(egress));

  it('one it sets by setAttribute sends to another origin', () => handlerCases.pageOwnAttribute(egress));

  it('a blank frame it makes takes HTML strings as before', () => handlerCases.pageBlankFrame(egress));

  it('it finds no default policy where it made none', () => handlerCases.pageSeesNoDefaultPolicy(egress));
});

describe('a page with a default policy of its own, loaded after an eval, through the extension', () => {
  it('the script’s innerHTML there: its policy called, the handler’s fetch held', () =>
    handlerDocumentCases.ownPolicyInserted(egress));

  it('the script’s setAttribute there: its policy called, the handler’s send held', () =>
    handlerDocumentCases.ownPolicyAttribute(egress));

  it('the page’s own handler there sends, its HTML strings through its own policy', () =>
    handlerDocumentCases.ownPolicyPageOwn(egress));
});

describe('a frame of the site navigated after the eval, through the extension', () => {
  // The frame's commit drops DOM breakpoints on detached nodes (measured on Chromium 156): the policy pauses on a
  // `debugger;` statement instead, which no commit drops, so a write as the new document loads is heard too.
  it('a handler a timer of the script’s writes into its new document as it loads: held, and named', () =>
    handlerDocumentCases.navigatedFrame(egress));

  it('one the page writes there after navigating it sends', () => handlerDocumentCases.pageNavigatedFrame(egress));
});

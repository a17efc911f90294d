// Inline event handlers an agent's script leaves in the page, in the person's Chrome through the real extension (as the
// engine's egress-handlers test does in the fallback): the attacks are written and skipped, as no signal Chrome gives
// ties a handler's run to who set it (measurements there); the page's own handler, after an eval, keeps sending.
import { describe, it } from 'vitest';
import { handlerCases } from '../support/late-handlers.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();

describe('an inline handler the script leaves in the page, through the extension', () => {
  it.skip('inserted during the eval: its fetch is held, and named', () => handlerCases.insertedByEval(egress));

  it.skip('inserted by a timer the script left: its fetch is held, and named', () =>
    handlerCases.insertedByTimer(egress));

  it.skip('on an image never inserted, calling the page’s own send: held, and named', () =>
    handlerCases.neverInserted(egress));
});

describe('the page’s own inline handlers, after an eval, through the extension', () => {
  it('one the page inserts sends to another origin', () => handlerCases.pageOwn(egress));
});

// A srcdoc a timer the agent's script left sets into a frame of the page's own, on real Chromium: the set names no stack
// and asks nothing of the network, and the srcdoc page's own code is not the tagged script, yet what it sends reaches no
// one and the next result names it. The page's own srcdoc sets, after the script, load what they like.
import { describe, it } from 'vitest';
import { srcdocCases } from '../support/late-srcdoc.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const engine = watchedEngineTab();

describe('a srcdoc a timer the script left sets into the page’s own frame', () => {
  it('whose page fetches: held, and named', () => srcdocCases.fetches(engine));

  it('whose page shows an image: held, and named', () => srcdocCases.showsImage(engine));

  it('whose page submits a form: held, and named', () => srcdocCases.submitsForm(engine));

  it('set through another realm’s setAttribute: held, and named', () => srcdocCases.setThroughOtherRealm(engine));

  it('the page’s own srcdoc set, after the script, loads its image from another origin', () =>
    srcdocCases.pageOwnSet(engine));
});

describe('what a timer the script left writes into the page’s own frame’s document', () => {
  it('an image whose error handler fetches, through innerHTML: held, and named', () =>
    srcdocCases.innerHtmlImage(engine));
});

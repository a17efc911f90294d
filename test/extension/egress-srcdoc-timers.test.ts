// A srcdoc a timer the agent's script left sets into a frame of the page's own, in the person's Chrome through the real
// extension (as the engine's egress-srcdoc-timers test does in the fallback): what its page sends reaches no one and the
// next result names it, as does what such a timer writes into the frame's document or an observer of the script's sets
// on a frame the page just inserted; the page's own srcdoc set, after the script, loads its image from another origin.
import { describe, it } from 'vitest';
import { srcdocCases } from '../support/late-srcdoc.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();

describe('a srcdoc a timer the script left sets into the page’s own frame, through the extension', () => {
  it('whose page fetches: held, and named', () => srcdocCases.fetches(egress));

  it('whose page shows an image: held, and named', () => srcdocCases.showsImage(egress));

  it('whose page submits a form: held, and named', () => srcdocCases.submitsForm(egress));

  it('the page’s own srcdoc set, after the script, loads its image from another origin', () =>
    srcdocCases.pageOwnSet(egress));

  it('an image whose error handler fetches, written into the page’s own frame through innerHTML: held, and named', () =>
    srcdocCases.innerHtmlImage(egress));
});

describe('a srcdoc set on a frame the page has just inserted, through the extension', () => {
  it('by an observer the script left, in the insertion’s own task: held, and named', () =>
    srcdocCases.observerSets(egress));

  it('by the page itself, in the insertion’s own task: its image loads', () => srcdocCases.pageSetsAsInserted(egress));
});

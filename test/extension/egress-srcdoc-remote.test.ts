// A frame of another site's page, whose owner is set in the person's Chrome through the real extension (as the engine's
// egress-srcdoc-gaps test does in the fallback): sent back into its parent's process by a timer the script left, or by
// the page, what the script has it send reaches no one and the next result names it; the page's own srcdoc set loads.
import { describe, it } from 'vitest';
import { remoteSrcdocCases } from '../support/late-srcdoc.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab(['127.0.0.1', 'localhost']);
const frameUrl = () => `${egress.linked.fixtures.crossOrigin}/frame-child.html`;

describe('a frame owner whose frame runs in another process, through the extension', () => {
  it('the page’s own srcdoc set there loads its image from another origin', () =>
    remoteSrcdocCases.pageOwnSet(egress, frameUrl()));

  it('a timer the script left sets its srcdoc: held, and named', () => remoteSrcdocCases.timerSets(egress, frameUrl()));

  it('a timer the script left fetches through its window once the page brought it back: held, and named', () =>
    remoteSrcdocCases.fetchThroughBrought(egress, frameUrl()));
});

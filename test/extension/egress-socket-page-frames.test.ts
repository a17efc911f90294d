// A frame the page made that a later timer of the script's reaches through, through the real extension (as the
// engine's egress-socket-page-frames test does in the fallback): nothing of the script's reaches the refused site.
import { describe, it } from 'vitest';
import { PAGE_FRAMES, pageFrameCase, pageOwnSockets } from '../support/late-page-frames.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();

describe('sockets a later timer of the script opens through a frame the page made stay held, through the extension', () => {
  for (const frame of PAGE_FRAMES) it(frame.kind, () => pageFrameCase(frame)(egress), 30_000);

  it('the page’s own sockets through those frames still go', () => pageOwnSockets(egress), 30_000);
});

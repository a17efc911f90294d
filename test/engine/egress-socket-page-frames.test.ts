// A frame the page made (before the eval, or after it from its own timer) that a later timer of the script's reaches
// through, on real Chromium: its realm's constructors were set up by the page's code, yet no handshake or fetch of the
// script's through it reaches the refused site.
import { describe, it } from 'vitest';
import { PAGE_FRAMES, pageFrameCase, pageOwnSockets } from '../support/late-page-frames.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const engine = watchedEngineTab();

describe('sockets a later timer of the script opens through a frame the page made stay held', () => {
  for (const frame of PAGE_FRAMES) it(frame.kind, () => pageFrameCase(frame)(engine), 30_000);

  it('the page’s own sockets through those frames still go', () => pageOwnSockets(engine), 30_000);
});

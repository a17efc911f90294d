// Per-tab engine state: the debugger handle, its frames, and the ref counter that keeps refs unique for the tab's life.
import type { Cdp } from './cdp.js';
import { FrameRegistry } from './frames.js';

export class PageContext {
  readonly frames: FrameRegistry;
  /** Next ref number; refs are never re-minted within a tab, so an old ref cannot hit a new element. */
  readonly refCounter = { n: 1 };

  constructor(readonly cdp: Cdp) {
    this.frames = new FrameRegistry(cdp);
  }

  dispose(): void {
    this.frames.dispose();
  }
}

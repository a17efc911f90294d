// Per-tab engine state: the debugger handle, its frames, the policy gate, and the ref counter that keeps refs unique for the tab's life.
import type { Cdp } from './cdp.js';
import { FrameRegistry } from './frames.js';
import type { PolicyGate } from './policy-gate.js';

export class PageContext {
  readonly frames: FrameRegistry;
  /** Next ref number; refs are never re-minted within a tab, so an old ref cannot hit a new element. */
  readonly refCounter = { n: 1 };

  constructor(
    readonly cdp: Cdp,
    readonly gate: PolicyGate,
  ) {
    this.frames = new FrameRegistry(cdp, gate);
  }

  dispose(): void {
    this.frames.dispose();
  }
}

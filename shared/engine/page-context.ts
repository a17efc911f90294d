// Per-tab engine state: the debugger handle, its frames, the policy gate, the agent's presence in the page, and the ref counter that keeps refs unique for the tab's life.
import type { Cdp } from './cdp.js';
import { FrameRegistry } from './frames.js';
import type { PolicyGate } from './policy-gate.js';
import { Presence } from './presence.js';

export class PageContext {
  readonly frames: FrameRegistry;
  readonly presence: Presence;
  /** Next ref number; refs are never re-minted within a tab, so an old ref cannot hit a new element. */
  readonly refCounter = { n: 1 };

  /** `onPersonStop`: the person pressed Esc in this tab while the agent was acting there. */
  constructor(
    readonly cdp: Cdp,
    readonly gate: PolicyGate,
    onPersonStop?: () => void,
  ) {
    this.frames = new FrameRegistry(cdp, gate);
    this.presence = new Presence(this.frames, cdp, onPersonStop);
  }

  dispose(): void {
    this.presence.dispose();
    this.frames.dispose();
  }
}

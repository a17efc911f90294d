// What the tab's top document has told without being asked: which main world it runs (known once Runtime is on, as the
// script trail keeps it after a first eval) and, from our world's password watch, whether it is quiet. A steady eval in
// a tab of one frame reads these instead of asking the page (ops/eval-ahead.ts).
import type { Cdp, CdpEvent } from './cdp.js';
import { PASSWORD_BINDING, WORLD_NAME } from './frame-worlds.js';

interface ExecutionContext {
  id: number;
  uniqueId: string;
  name: string;
  auxData?: { frameId?: string; isDefault?: boolean };
}

/** The top document's main world, as an eval names it, and the count of changes it was quiet under. */
export interface QuietMoment {
  uniqueContextId: string;
  generation: number;
}

export class QuietDocument {
  /** The top document's main world, and our isolated world's context in it: both from Runtime's context events. */
  private mainWorld: string | undefined;
  private mainWorldId: number | undefined;
  private ourWorld: number | undefined;
  private quiet = false;
  /** What each world of ours said last, kept for a world Runtime has not named yet (its first eval enables Runtime). */
  private readonly told = new Map<number, boolean>();
  /** Bumped whenever the document stops being known quiet: a new document, a world gone, a watch that saw a candidate. */
  private generation = 0;
  private readonly unsubscribe: () => void;

  constructor(
    cdp: Cdp,
    private readonly isMainFrame: (frameId: string) => boolean,
  ) {
    this.unsubscribe = cdp.on((event) => this.onEvent(event));
  }

  dispose(): void {
    this.unsubscribe();
  }

  /** The top document's main world, when our watch there last said it has no input that may be a password field. */
  now(): QuietMoment | undefined {
    if (!this.quiet || this.mainWorld === undefined || this.ourWorld === undefined) return undefined;
    return { uniqueContextId: this.mainWorld, generation: this.generation };
  }

  /**
   * True when the document has stayed quiet since `moment`. Events on a session arrive in the order the page sent them,
   * and the watch tells a change before the page's next task: read after an answer, this covers all that ran before it.
   */
  still(moment: QuietMoment): boolean {
    return this.quiet && this.generation === moment.generation && this.mainWorld === moment.uniqueContextId;
  }

  /** True while the top document's main world is still the one of `moment` (no navigation replaced it). */
  sameDocument(moment: QuietMoment): boolean {
    return this.mainWorld === moment.uniqueContextId;
  }

  private onEvent(event: CdpEvent): void {
    if (event.sessionId !== undefined) return;
    switch (event.method) {
      case 'Runtime.executionContextCreated': {
        const context = event.params['context'] as ExecutionContext;
        const frameId = context.auxData?.frameId;
        if (frameId === undefined || !this.isMainFrame(frameId)) return;
        // Runtime.enable replays a document's worlds in no set order; the worlds of the one before went first (cleared,
        // destroyed or navigated away).
        if (context.auxData?.isDefault) {
          this.mainWorld = context.uniqueId;
          this.mainWorldId = context.id;
        } else if (context.name === WORLD_NAME) this.ourWorld = context.id;
        else return;
        // A new world has a watch of its own (or none yet): quiet only once it says so.
        this.unknown();
        this.quiet = this.ourWorld !== undefined && this.told.get(this.ourWorld) === true;
        return;
      }
      case 'Runtime.executionContextDestroyed': {
        const id = event.params['executionContextId'];
        if (id === this.ourWorld || id === this.mainWorldId) this.forget();
        return;
      }
      case 'Runtime.executionContextsCleared':
        return this.forget();
      case 'Page.frameNavigated': {
        const frame = event.params['frame'] as { parentId?: string };
        if (frame.parentId === undefined) this.forget();
        return;
      }
      case 'Runtime.bindingCalled': {
        if (event.params['name'] !== PASSWORD_BINDING) return;
        const id = Number(event.params['executionContextId']);
        const quiet = event.params['payload'] === 'quiet';
        this.told.set(id, quiet);
        if (id !== this.ourWorld) return;
        if (quiet) this.quiet = true;
        else this.unknown();
        return;
      }
    }
  }

  private forget(): void {
    this.told.clear();
    this.mainWorld = undefined;
    this.mainWorldId = undefined;
    this.ourWorld = undefined;
    this.unknown();
  }

  private unknown(): void {
    this.quiet = false;
    this.generation++;
  }
}

// Which documents an agent's script can still reach, kept current by frame events, so a navigation Chrome names no
// initiator stack for (a form the script submits, into its own frame or a new window: measured on Chromium 156,
// initiator {type: 'other'}) is told from the person's own by where it starts and whose gesture, if any, started it.
import type { CdpEvent } from './cdp.js';
import { frameOrigin, type Frame } from './frame.js';

// An eval (or an event the script dispatches) runs with a user gesture, and Chrome's transient activation lasts 5 s
// after it; a second more for the clock.
export const EVAL_ACTIVATION_MS = 6_000;
// A page may submit a little after the act's click (a handler that checks the form first): the act's, not the script's.
const ACT_SETTLE_MS = 2_000;
// Deeper than any frame tree a page builds: a bound on the walk, not a limit pages meet.
const MAX_DEPTH = 64;

interface DocumentRequest {
  frameId?: string;
  type?: string;
  initiator?: { stack?: unknown };
  hasUserGesture?: boolean;
  request: { url: string };
}

export class ScriptedDocuments {
  /** Frames whose current document was one the script could reach when it ran. */
  private readonly scripted = new Set<string>();
  /** Each frame's parent and its document's origin, as the listing and frame events last told them. */
  private readonly frames = new Map<string, { parent: string | undefined; origin: string | undefined }>();
  /** Per frame, the URL of the navigation its document last asked for (renderer-initiated only). */
  private readonly requested = new Map<string, string>();
  private evals = 0;
  private activeUntil = 0;

  /**
   * An eval is about to run in `origin`: every frame of that origin (same-origin frames script each other) is within its
   * reach, and so is each frame of that origin they hold, now or later. Call the returned function when it is over.
   */
  running(frames: readonly Frame[], origin: string | undefined): () => void {
    for (const frame of frames) {
      this.frames.set(frame.frameId, { parent: frame.parentFrameId, origin: frameOrigin(frame) });
      if (origin !== undefined && frameOrigin(frame) === origin) this.scripted.add(frame.frameId);
    }
    this.evals++;
    return () => {
      this.evals--;
      this.activeUntil = Date.now() + EVAL_ACTIVATION_MS;
    };
  }

  /** An eval is under way (its awaited promise too). */
  evalRunning(): boolean {
    return this.evals > 0;
  }

  onEvent(event: CdpEvent): void {
    const params = event.params;
    switch (event.method) {
      case 'Page.frameAttached':
        return void this.frames.set(String(params['frameId']), {
          parent: params['parentFrameId'] as string | undefined,
          origin: undefined,
        });
      case 'Page.frameNavigated': {
        // A new document: out of the script's reach unless a frame of its origin above it is within it.
        const frame = params['frame'] as { id: string; parentId?: string; securityOrigin?: string };
        this.frames.set(frame.id, { parent: frame.parentId, origin: frame.securityOrigin });
        return void this.scripted.delete(frame.id);
      }
      case 'Page.frameDetached':
        if (params['reason'] === 'swap') return;
        this.frames.delete(String(params['frameId']));
        this.requested.delete(String(params['frameId']));
        return void this.scripted.delete(String(params['frameId']));
      case 'Page.frameRequestedNavigation':
        return void this.requested.set(String(params['frameId']), String(params['url']));
    }
  }

  /**
   * A document request with no initiator stack that its own document asked for (not the person's address bar, a reload or
   * history) in a document the script can reach, with no gesture or with the eval's: the script's, as far as can be told.
   * Left to the page: the same from a person's click once the eval's activation is over, or from an act of the agent's,
   * which the act's own window judges.
   */
  fromScript(sent: DocumentRequest, acting: (ms: number) => boolean): boolean {
    if (sent.type !== 'Document' || sent.initiator?.stack !== undefined || sent.frameId === undefined) return false;
    if (this.requested.get(sent.frameId) !== sent.request.url) return false;
    this.requested.delete(sent.frameId);
    return this.startedByScript(sent.frameId, sent.hasUserGesture === true, acting);
  }

  /**
   * A document request with no initiator stack that `frameId`'s document started, here or in a window it opened (a form
   * with a target): the script's when the script reached that document, unless a person's gesture started it.
   * A host that cannot tell the frame (undefined) is answered for any document of the tab the script reached. One that
   * cannot tell the gesture is answered as for none, at any time: the eval's activation window bounds only a known
   * gesture, and a browser with no popup blocker (Electron) opens a gestureless window a timer asks for, however late.
   * Nor is it the act's when an act is under way: with no stack to tell them apart, a click handler the script left
   * opens its window on the act's own click.
   */
  startedByScript(
    frameId: string | undefined,
    hasUserGesture: boolean | undefined,
    acting: (ms: number) => boolean,
  ): boolean {
    if (frameId === undefined ? this.scripted.size === 0 : !this.reachable(frameId)) return false;
    if (hasUserGesture !== true) return true;
    if (acting(ACT_SETTLE_MS)) return false;
    return this.evals > 0 || Date.now() < this.activeUntil;
  }

  /** The frame's document is one the script reached, or shares its origin with one above it that is (unknown: it may). */
  private reachable(frameId: string): boolean {
    const origin = this.frames.get(frameId)?.origin;
    let at: string | undefined = frameId;
    for (let depth = 0; at !== undefined && depth < MAX_DEPTH; depth++, at = this.frames.get(at)?.parent) {
      if (!this.scripted.has(at)) continue;
      const above = this.frames.get(at)?.origin;
      if (at === frameId || origin === undefined || above === undefined || origin === above) return true;
    }
    return false;
  }
}

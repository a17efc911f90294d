// The agent's presence in a tab the person can see: the in-page pill while operations run (and briefly after), and
// the person's Esc there, reported as a stop.
import type { Cdp, CdpEvent } from './cdp.js';
import type { Frame, FrameRegistry } from './frames.js';

/** The CDP binding our isolated world gets (frame-worlds.ts adds it to each new top-frame world); the page's has none. */
export const PERSON_STOP_BINDING = '__chromeMcpStop';
// The page keeps the pill up (and Esc armed) this long after the engine last refreshed it: the linger after a call.
const SHOWN_FOR_MS = 3_000;
// The engine refreshes at most this often, so a burst of cheap calls (eval) costs one message a second, not one each;
// and this often while a long operation runs.
export const REFRESH_MS = 1_000;

/** What the person's stop says, to the agent and in the activity stream, whichever backend heard the Esc. */
export function personStopMessage(where: string): string {
  return `Esc pressed in ${where}.`;
}

export class Presence {
  private running = 0;
  /** Operations running that capture pixels: the pill stays hidden while any does. */
  private capturing = 0;
  private refreshedAt = 0;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  /** The person pressed Esc during this run of operations: no refresh until the next run (after a resume). */
  private stopped = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly frames: FrameRegistry,
    cdp: Cdp,
    private readonly onPersonStop: (() => void) | undefined,
  ) {
    this.unsubscribe = cdp.on((event) => this.onEvent(event));
  }

  /**
   * Marks an operation running on the tab until the returned function is called. The pill is refreshed without waiting
   * for the page (no round trip on the call's path), except for `capture` (a screenshot), which hides it first.
   */
  async acting(capture: boolean): Promise<() => void> {
    if (this.running++ === 0) {
      this.stopped = false;
      this.keepAlive = setInterval(() => this.refresh(true), REFRESH_MS);
    }
    if (capture) {
      // Hidden before the capture when it may be showing; otherwise the page just learns it is acting.
      const showing = Date.now() - this.refreshedAt < SHOWN_FOR_MS;
      this.capturing++;
      if (showing) await this.indicate().catch(() => undefined);
      else this.refresh(true);
    } else {
      this.refresh(false);
    }
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.running === 0) clearInterval(this.keepAlive);
      if (capture && --this.capturing === 0) this.refresh(true);
    };
  }

  /**
   * Runs `send`, which dispatches `key`, telling the page first when it is an Escape of ours. The window is exact: the
   * page is told before the key leaves, and told again only once Chrome has answered the dispatch, which it does after
   * the renderer has handled the key. Inside it the page takes the first trusted Escape for ours; should the person's
   * come first, ours then counts as theirs and still stops. (Ours may land in a frame and never reach the top page:
   * then a person's Esc in that window, a few milliseconds, is the one taken for ours.)
   */
  async ownKeys<T>(key: string, send: () => Promise<T>): Promise<T> {
    if (key !== 'Escape') return send();
    const told = await this.top()
      .then((top) => this.frames.call(top, 'expectOwnEscape', [true]))
      .then(
        () => true,
        () => false,
      );
    try {
      return await send();
    } finally {
      if (told)
        void this.top()
          .then((top) => this.frames.call(top, 'expectOwnEscape', [false]))
          .catch(() => undefined);
    }
  }

  dispose(): void {
    this.unsubscribe();
    clearInterval(this.keepAlive);
  }

  private refresh(force: boolean): void {
    const now = Date.now();
    if (this.stopped || (!force && now - this.refreshedAt < REFRESH_MS)) return;
    this.refreshedAt = now;
    // A page we may not read, or one mid-navigation, shows no pill; the next operation tries again.
    this.indicate().catch(() => (this.refreshedAt = 0));
  }

  private async indicate(): Promise<void> {
    await this.frames.call(await this.top(), 'indicate', [SHOWN_FOR_MS, this.capturing === 0, PERSON_STOP_BINDING]);
  }

  /** The top frame for a page-library call, known from navigation events: no frame listing, no round trip. */
  private async top(): Promise<Frame> {
    const main = await this.frames.mainFrameUrl();
    const origin = main.origin === undefined ? {} : { origin: main.origin };
    return { ordinal: 0, frameId: main.id, sessionId: undefined, parentFrameId: undefined, url: main.url, ...origin };
  }

  private onEvent(event: CdpEvent): void {
    if (event.sessionId !== undefined) return;
    if (event.method === 'Runtime.bindingCalled' && event.params['name'] === PERSON_STOP_BINDING) {
      this.stopped = true;
      this.onPersonStop?.();
    } else if (
      event.method === 'Page.frameNavigated' &&
      (event.params['frame'] as { parentId?: string }).parentId === undefined
    ) {
      // A new document has no pill yet: the next refresh must not be skipped.
      this.refreshedAt = 0;
    }
  }
}

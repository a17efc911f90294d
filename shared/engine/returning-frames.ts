// Frames whose document runs in another process, and their return into their parent's: a document committed there on
// the way back meets no Fetch pause (measured on Chromium 156), so the parent's session is enabled again once it commits,
// and refuses other origins meanwhile when the agent's script sent the frame back: blocked in the renderer until that
// first enable is answered, offline alone after, when the page's own requests, which Fetch pauses, wait for the rule's
// end instead of failing.
import type { Cdp, CdpEvent } from './cdp.js';
import type { AllowedOrigins } from './egress-origins.js';
import type { Frame } from './frame.js';
import type { NavigationGuard } from './navigation-guard.js';
import { heldWhole } from './popup-trail.js';

// A script's set that sends the frame nowhere (src to a URL the guard fails, the same fragment) tells no end: the
// session's refusal outlasts any srcdoc's return by far, and then lets the page's own traffic go again.
const HOLD_MS = 10_000;

interface Hold {
  sessionId: string | undefined;
  timer: ReturnType<typeof setTimeout>;
  /** Fetch was enabled again once the frame committed back, and again once its document loaded there. */
  reenabled?: true;
  loaded?: true;
}

export class ReturningFrames {
  /** Per frame in a process of its own, the session of its parent's document (the one that attached it). */
  private readonly remote = new Map<string, string | undefined>();
  /** Frames the script sent back, per frame: the parent session refusing other origins until the return is followed. */
  private readonly holds = new Map<string, Hold>();
  /** Frames committed back into their parent's process, per frame: the parent session, until the document loaded. */
  private readonly returned = new Map<string, string | undefined>();
  /** Per session whose rules a hold keeps: the paused requests waiting for them to be lifted. */
  private readonly waiting = new Map<string | undefined, (() => void)[]>();

  /**
   * `allowed`: the origins the script may reach. `evalRunning`: an eval's hold stands, whose own end lifts the rules.
   * `conditions`: a session's network conditions under the origins given, with those the script's sockets keep there
   * (script-sockets.ts), which no release lifts. `unpaused`: a send of the script's went out in the session with no Fetch
   * pause and has not ended: the offline rule judges it only as it reaches the network service, so it stands till then.
   */
  constructor(
    private readonly cdp: Cdp,
    private readonly navigation: NavigationGuard,
    private readonly allowed: () => AllowedOrigins,
    private readonly evalRunning: () => boolean,
    private readonly conditions: (
      sessionId: string | undefined,
      origins: AllowedOrigins | undefined,
    ) => Record<string, unknown>[],
    private readonly unpaused: (sessionId: string | undefined) => boolean,
  ) {}

  /** The frames of other processes as listed, for those attached before the trail listened. */
  learn(frames: readonly Frame[]): void {
    const sessionOf = new Map(frames.map((frame) => [frame.frameId, frame.sessionId]));
    for (const frame of frames) {
      const parent = frame.parentFrameId;
      if (parent !== undefined && sessionOf.has(parent) && sessionOf.get(parent) !== frame.sessionId)
        this.remote.set(frame.frameId, sessionOf.get(parent));
    }
  }

  /** The frames of other processes whose owners are in `sessionId`'s documents. */
  remoteIn(sessionId: string | undefined): string[] {
    return [...this.remote].filter(([, parent]) => parent === sessionId).map(([frameId]) => frameId);
  }

  /** The session holding the owner of `frameId`, told of in `sessionId`: its parent's, when it runs in another process. */
  ownerSession(sessionId: string | undefined, frameId: string): string | undefined {
    return this.remote.has(frameId) ? this.remote.get(frameId) : sessionId;
  }

  /** The rules `sessionId` keeps while a frame the script sent back is on its way: an eval's end gives them back. */
  rules(sessionId: string | undefined): AllowedOrigins | undefined {
    return [...this.holds.values()].some((hold) => hold.sessionId === sessionId) ? this.allowed() : undefined;
  }

  /** The rules `sessionId` blocks in the renderer with, until Fetch was enabled again after each return's commit. */
  blocking(sessionId: string | undefined): AllowedOrigins | undefined {
    const early = [...this.holds.values()].some((hold) => hold.sessionId === sessionId && !hold.reenabled);
    return early ? this.allowed() : undefined;
  }

  /**
   * While a hold keeps `sessionId`'s rules, `judge` runs once they are lifted, and true is returned. A request Fetch paused
   * there meanwhile is judged only then: let go at once, the page's own would meet the offline rule and fail.
   */
  judgeLater(sessionId: string | undefined, judge: () => void): boolean {
    if (!this.rules(sessionId)) return false;
    this.waiting.set(sessionId, [...(this.waiting.get(sessionId) ?? []), judge]);
    return true;
  }

  /**
   * The script is setting the owner of `frameId`, paused in `sessionId` before the set: a frame of another process
   * commits back here on a srcdoc, and its first requests go out at once. The session refuses other origins until
   * Fetch pauses the returned document's; resolves once the rules stand, for the page to go on only then (the browser
   * answers for them itself, so a resume sent after them may still reach the page first).
   */
  scriptSets(sessionId: string | undefined, frameId: string): Promise<unknown> | undefined {
    if (!this.remote.has(frameId) || this.remote.get(frameId) !== sessionId || this.holds.has(frameId)) return;
    this.holds.set(frameId, { sessionId, timer: setTimeout(() => this.release(frameId), HOLD_MS) });
    return this.block(sessionId, this.allowed());
  }

  /** The set paused on was of an attribute that does not navigate: nothing comes back. */
  notNavigating(frameId: string): void {
    this.release(frameId);
  }

  onEvent(event: CdpEvent): void {
    const { params, sessionId } = event;
    switch (event.method) {
      case 'Target.attachedToTarget': {
        // An iframe target's id is the id of the frame it holds.
        const info = params['targetInfo'] as { type: string; targetId: string };
        if (info.type === 'iframe') this.remote.set(info.targetId, sessionId);
        return;
      }
      case 'Page.frameNavigated': {
        const frame = params['frame'] as { id: string };
        if (!this.remote.has(frame.id) || this.remote.get(frame.id) !== sessionId) return;
        this.remote.delete(frame.id);
        this.returned.set(frame.id, sessionId);
        // Enabling Fetch again hands the session's loaders to every frame it holds now (egress-hold.ts), this one too;
        // only after the commit: enabled as the frame attaches, the committed document still went unpaused (measured).
        return void this.reenable(sessionId, frame.id, { reenabled: true });
      }
      case 'Page.frameStoppedLoading': {
        // The browser tells the commit before the renderer has taken it: an enable answered in that moment left the
        // returned document's later sends unpaused (measured on Chromium 156 under load, 1 run in 10), so the session
        // is enabled again once the document has loaded. Through chrome.debugger the first enable's answer also came
        // before the document's loaders paused what its parser's script sent: the rules stand until this one too.
        const frameId = String(params['frameId']);
        if (this.returned.get(frameId) !== sessionId || !this.returned.has(frameId)) return;
        this.returned.delete(frameId);
        return void this.reenable(sessionId, frameId, { loaded: true });
      }
      case 'Page.frameDetached':
        if (params['reason'] === 'swap') return;
        this.remote.delete(String(params['frameId']));
        this.returned.delete(String(params['frameId']));
        return this.release(String(params['frameId']));
    }
  }

  private reenable(sessionId: string | undefined, frameId: string, step: Pick<Hold, 'reenabled' | 'loaded'>): void {
    void this.navigation
      .reenable(sessionId)
      .catch(() => undefined)
      .then(() => this.settled(frameId, step));
  }

  private settled(frameId: string, step: Pick<Hold, 'reenabled' | 'loaded'>): void {
    const hold = this.holds.get(frameId);
    if (!hold) return;
    Object.assign(hold, step);
    // An eval's hold blocks in the renderer itself, and its restore leaves what `blocking` tells.
    if (step.reenabled && !this.blocking(hold.sessionId) && !this.evalRunning()) void this.unblock(hold.sessionId);
    this.unpausedEnded(hold.sessionId);
  }

  /** The script's unpaused sends in `sessionId` ended (or paused): a return followed to its end lets its rules go. */
  unpausedEnded(sessionId: string | undefined): void {
    if (this.unpaused(sessionId)) return;
    for (const [frameId, hold] of this.holds)
      if (hold.sessionId === sessionId && hold.reenabled && hold.loaded) this.release(frameId);
  }

  /** The renderer's block goes: the page's own requests, paused by Fetch, now wait for the offline rule's end. */
  private unblock(sessionId: string | undefined): Promise<unknown> {
    return this.cdp
      .send('Network.setBlockedURLs', { urlPatterns: heldWhole(this.cdp, sessionId)?.blockPatterns() ?? [] }, sessionId)
      .catch(() => undefined);
  }

  private release(frameId: string): void {
    const hold = this.holds.get(frameId);
    if (!hold) return;
    clearTimeout(hold.timer);
    this.holds.delete(frameId);
    // Another frame's hold keeps the rules; an eval's hold lifts them itself, and refuses other origins until then.
    if (this.rules(hold.sessionId)) return;
    if (this.evalRunning()) return this.wake(hold.sessionId);
    // A window a page of the opener's script holds whole keeps that page's rules (popup-trail.ts).
    void this.block(hold.sessionId, heldWhole(this.cdp, hold.sessionId)).then(() => this.wake(hold.sessionId));
  }

  /** The session's rules are lifted: the requests paused meanwhile are judged now. */
  private wake(sessionId: string | undefined): void {
    const waiting = this.waiting.get(sessionId) ?? [];
    this.waiting.delete(sessionId);
    for (const resolve of waiting) resolve();
  }

  private block(sessionId: string | undefined, rules: AllowedOrigins | undefined): Promise<unknown> {
    const { cdp } = this;
    return Promise.all([
      cdp.send('Network.setBlockedURLs', { urlPatterns: rules?.blockPatterns() ?? [] }, sessionId),
      cdp.send(
        'Network.emulateNetworkConditionsByRule',
        { matchedNetworkConditions: this.conditions(sessionId, rules) },
        sessionId,
      ),
    ]).catch(() => undefined);
  }
}

// Holds what an agent's script sends to other origins: while an eval runs, every request of the tab to an origin outside
// the tab's own frames is stopped inside the browser, and each one is named for the result.
import { frameOrigin, type Frame } from './frame.js';
import { CdpCommandError, type CdpEvent } from './cdp.js';
import { noAnswerWithin, withDeadline } from './deadline.js';
import { InflightRequests } from './egress-drain.js';
import { HeldLedger, type Send } from './egress-ledger.js';
import { AllowedOrigins } from './egress-origins.js';
import type { PageContext } from './page-context.js';
import { TabArming } from './tab-arming.js';
import { ToolError } from '../protocol/errors.js';
import { networkEnableParams } from './network-log.js';

/** One eval's stretch of the hold. */
export interface EgressWindow {
  /** What was stopped while this window was open. */
  held(): Send[];
  /**
   * Waits for the sends a script queued without awaiting them (see egress-drain.ts); never throws. `turned`: the script
   * ended in the drain's turn (TURN_LINE), so only requests still in flight are waited for.
   */
  drain(sessionId: string | undefined, turned?: boolean): Promise<void>;
  /**
   * Ends this window; the last one open lifts the hold from every session of the tab, whatever happened before. The
   * commands are not awaited: each session runs them ahead of any the next call sends, so that call finds the tab as
   * it was without the result waiting for the browser to say so.
   */
  close(): void;
}

/**
 * Opens a window on the tab's hold, arming the tab when no other window is open. Nothing of the script may run before
 * this resolves; it rejects (with the tab restored) when the browser would not arm, so a script never runs unheld.
 */
export function openEgressWindow(page: PageContext): Promise<EgressWindow> {
  return holdOf(page).open();
}

/** A window opened ahead of its arming's answer, where the tab allows it (TabHold.openAhead); undefined elsewhere. */
export function openEgressWindowAhead(
  page: PageContext,
): Promise<{ window: EgressWindow; armed: Promise<void> } | undefined> {
  return holdOf(page).openAhead();
}

/** An eval's hold stands on the tab (from its arming until its restore is sent). */
export function egressHeld(page: PageContext): boolean {
  return holds.get(page)?.active ?? false;
}

function holdOf(page: PageContext): TabHold {
  let hold = holds.get(page);
  if (!hold) {
    hold = new TabHold(page);
    holds.set(page, hold);
  }
  return hold;
}

const holds = new WeakMap<PageContext, TabHold>();

// A session busy in a script answers no command. Arming waits as long as the password guard waits for the main frame
// (the guard refuses the script sooner when a child frame is the silent one); lifting the hold waits less, as the
// script's result is ready and the commands stay queued for the session to apply when it is free.
const ARM_TIMEOUT_MS = 15_000;
const RESTORE_TIMEOUT_MS = 3_000;

/**
 * The hold of one tab, shared by the evals that run on it at once: the first window arms it, the last one to close
 * restores it, so one eval's end never lifts the hold from another that is still running.
 *
 * Each layer stops what the others cannot (all seen on Chromium 156). None widens the NavigationGuard's Fetch patterns:
 * every Fetch.enable updates the renderer's loaders, and widening them to every request for the window took eval's p50
 * in `npm run bench` from about 2 ms to 7–9 ms in the fallback and to 7–14 ms through the extension.
 * - Network.setBlockedURLs, every http(s) URL outside the allowed origins. The renderer refuses such a request before
 *   it leaves, so no CORS preflight (which carries the URL) goes out either; redirect hops are checked too. The offline
 *   rule alone stops all of those as well (Chromium 150), but only in the network service: a request the trail's Fetch
 *   pattern pauses on its way there and releases after the hold lifts goes out (a preflighted XHR did). Refused in the
 *   renderer, it never pauses.
 * - Network.emulateNetworkConditionsByRule, offline outside the allowed origins. The network service applies it to
 *   what the renderer does not check: WebSocket handshakes, and WebRTC's STUN (measured on Chromium 150). The browser
 *   starts one host's handshakes one at a time, each judged as it starts: a socket of the script's still queued when
 *   the hold lifts keeps a rule for its own URL until its handshake is over (script-sockets.ts).
 * - The tab's dedicated workers get both rules on their own sessions: those running at arming, and each one started
 *   meanwhile before its first line runs (the frame registry keeps it paused until then). A worker's requests meet
 *   only its own session's rules, never the page's.
 * - Network.setBypassServiceWorker. A request a service worker would fetch again goes out from the worker's own
 *   target, which neither layer covers; bypassed, it goes the page's way and meets both.
 * - Document requests, which the NavigationGuard pauses already: a cross-origin one is failed here with Aborted, which
 *   leaves the frame on its page, before the policy would let it go.
 * Network.enable, which the other layers need, also tells what was held (requestWillBeSent, webSocketCreated). What
 * none reaches: workers that are not the tab's own targets. A shared worker the script starts, or a message it posts to
 * the origin's service worker, makes requests from a target no tab session attaches to; the fallback holds those from
 * the browser's side (worker-targets.ts), the extension in the network stack (extension/src/scripted-workers.ts), as
 * chrome.debugger tells no one when they start.
 */
class TabHold {
  private readonly ledger = new HeldLedger();
  private allowed = new AllowedOrigins([]);
  private readonly inflight = new InflightRequests();
  /**
   * Sessions the last restore left with Network on and service workers bypassed (those the script trail follows):
   * arming them again sends only the rules, which the restore lifted.
   */
  private kept = new Set<string | undefined>();
  /** The last arming's commands are out: whether on the tab's own session alone. */
  private sent: Promise<boolean> = Promise.resolve(false);
  /** The hold: active while the tab is held; its listeners stay from the first arming until the restore is answered. */
  private readonly arming = new TabArming({
    arm: () => this.arm(),
    restore: (sessions) => this.restore(sessions),
    hook: () => this.hook(),
    restoreTimeoutMs: RESTORE_TIMEOUT_MS,
    unhooked: () => this.inflight.clear(),
  });

  constructor(private readonly page: PageContext) {}

  get active(): boolean {
    return this.arming.active;
  }

  async open(): Promise<EgressWindow> {
    const window = this.window();
    try {
      await this.arming.join();
    } catch (error) {
      window.close();
      throw error;
    }
    return window;
  }

  /**
   * A window whose arming is sent, not answered: undefined unless the tab's one session was armed before (a browser
   * that cannot hold would have refused then) and no other window is open. Its rules go out ahead of whatever the caller
   * sends next on that session, which the browser applies in order; `armed` tells whether they took.
   */
  async openAhead(): Promise<{ window: EgressWindow; armed: Promise<void> } | undefined> {
    if (this.arming.active || !this.kept.has(undefined)) return undefined;
    const window = this.window();
    // join() arms now, and the arming notes when its commands are out and on which sessions.
    const armed = this.arming.join();
    armed.catch(() => undefined);
    const alone = await this.sent;
    // A frame or worker of another session came meanwhile: its rules are not ordered before the caller's commands.
    if (!alone) await armed.catch(() => undefined);
    return { window, armed };
  }

  private window(): EgressWindow {
    const sends = this.ledger.start();
    return {
      held: sends.held,
      drain: (sessionId, turned) => this.inflight.drain(this.page.cdp, sessionId, turned),
      close: () => this.close(sends.stop),
    };
  }

  private close(stop: () => void): void {
    stop();
    this.arming.leave();
  }

  private arm(): Promise<void> {
    const sending = this.page.frames.list().then((frames) => this.send(frames));
    this.sent = sending.then(
      ({ alone }) => alone,
      () => false,
    );
    return sending.then(({ outcomes }) => this.settle(outcomes));
  }

  /** Sends the arming to every session of the tab; `alone` when that is the tab's own session only. */
  private send(frames: Frame[]): { alone: boolean; outcomes: Promise<PromiseSettledResult<unknown>[]> } {
    // A frame the policy does not let us read (one loaded before we attached) lends its origin no trust.
    const origins = frames.filter((frame) => this.page.frames.allows(frame, 'read')).map(frameOrigin);
    if (!this.allowed.same(origins)) this.allowed = new AllowedOrigins(origins);
    this.arming.listen();
    const sessions = new Set(frames.map((frame) => frame.sessionId));
    for (const sessionId of sessions) this.arming.track(sessionId);
    // Workers already running could be told to send by the script: they are held too. One ending meanwhile is no failure.
    const workers = this.page.frames.workerSessions();
    for (const sessionId of workers) this.arming.track(sessionId);
    const arming = [
      ...[...sessions].map((sessionId) => this.armSession(sessionId)),
      ...workers.map((sessionId) => this.armSession(sessionId).catch(() => undefined)),
    ];
    const outcomes = withDeadline(Promise.allSettled(arming), ARM_TIMEOUT_MS, () => {
      throw new ToolError(
        'TIMEOUT',
        `eval: a frame of the tab ${noAnswerWithin(ARM_TIMEOUT_MS)} when its requests were to be held; the script did not run.`,
      );
    });
    return { alone: workers.length === 0 && sessions.size === 1 && sessions.has(undefined), outcomes };
  }

  private async settle(arming: Promise<PromiseSettledResult<unknown>[]>): Promise<void> {
    const outcomes = await arming;
    const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (!failed) return;
    // A Chrome too old for a command is told so; any other failure (the tab closed meanwhile) is the usual CDP one.
    if (failed.reason instanceof CdpCommandError && /wasn't found/.test(failed.reason.cdpMessage)) {
      throw new ToolError(
        'EVAL_FAILED',
        `eval: this browser cannot hold the script's requests to other origins (${failed.reason.message}); the script did not run.`,
        {
          next: 'Update Chrome: holding them needs Network.emulateNetworkConditionsByRule with a per-rule offline switch.',
        },
      );
    }
    throw failed.reason;
  }

  private armSession(sessionId: string | undefined): Promise<unknown> {
    const { cdp } = this.page;
    // Commands on one session run in order, so those after Network.enable find it on. No bodies are kept for us.
    const switches = this.kept.has(sessionId)
      ? []
      : [
          cdp.send('Network.enable', networkEnableParams(this.page.network), sessionId),
          cdp.send('Network.setBypassServiceWorker', { bypass: true }, sessionId),
        ];
    return Promise.all([
      ...switches,
      cdp.send('Network.setBlockedURLs', { urlPatterns: this.allowed.blockPatterns() }, sessionId),
      cdp.send('Network.emulateNetworkConditionsByRule', { matchedNetworkConditions: this.allowed.rules() }, sessionId),
    ]);
  }

  /** Lifts the hold from every session it armed (the arming's cycle says when, tab-arming.ts). */
  private restore(sessions: (string | undefined)[]): Promise<unknown> {
    const { cdp } = this.page;
    this.kept = new Set(sessions.filter((sessionId) => this.page.trail.followed(sessionId) !== undefined));
    // Every command is tried on every session: one that fails (a frame gone) must not leave the others held.
    return Promise.all(
      sessions.flatMap((sessionId) => {
        // What the script trail follows stays followed: a session keeps telling initiators, a script's worker its rules.
        const trail = this.page.trail.followed(sessionId);
        if (trail === 'whole') return [];
        // A window a page of the opener's script holds whole gets that page's rules back, its Network on (popup-trail.ts).
        // A session keeps other origins offline while a frame the script sent back returns (returning-frames.ts), and a
        // socket of the script's still waiting for its handshake keeps its rule (script-sockets.ts).
        const whole = this.page.trail.keptRules(sessionId);
        return [
          cdp.send('Network.setBlockedURLs', { urlPatterns: whole?.blockPatterns() ?? [] }, sessionId),
          cdp.send(
            'Network.emulateNetworkConditionsByRule',
            { matchedNetworkConditions: this.page.trail.liftedRules(sessionId) },
            sessionId,
          ),
          // While the act gate has the tab widened (gate/tab-gate.ts), Network stays on and service workers bypassed;
          // while the network log captures (network-log.ts), Network stays on.
          ...(this.page.trail.keepsNetwork(sessionId) || this.page.input.gateWidened
            ? []
            : [
                cdp.send('Network.setBypassServiceWorker', { bypass: false }, sessionId),
                ...(this.page.network.capturing ? [] : [cdp.send('Network.disable', {}, sessionId)]),
              ]),
        ].map((sent) => sent.catch(() => undefined));
      }),
    );
  }

  private hook(): () => void {
    const stopListening = this.page.cdp.on((event) => this.onEvent(event));
    const stopIntercepting = this.page.frames.navigation.interceptFirst((event) => this.onDocument(event));
    const stopPreparing = this.page.frames.onWorkerStart((sessionId) => this.armWorker(sessionId));
    return () => {
      stopListening();
      stopIntercepting();
      stopPreparing();
    };
  }

  /** A worker started while the tab is held gets the same rules before its first line runs. */
  private async armWorker(sessionId: string): Promise<void> {
    if (!this.arming.active) return;
    this.arming.track(sessionId);
    await this.armSession(sessionId);
  }

  /**
   * A request the NavigationGuard paused (documents only): a cross-origin one is failed here before it leaves; one to an
   * allowed origin, and every response the guard pauses, go on to the guard.
   */
  private onDocument(event: CdpEvent): boolean {
    const paused = event.params as {
      requestId: string;
      resourceType: string;
      request: { url: string; method: string };
      responseStatusCode?: number;
      responseErrorReason?: string;
    };
    const atResponse = paused.responseStatusCode !== undefined || paused.responseErrorReason !== undefined;
    // Once the last window closed, the next call's own navigation may already be on its way: the policy alone judges it.
    if (!this.arming.active || atResponse || this.allowed.allows(paused.request.url)) return false;
    void this.page.cdp
      .send('Fetch.failRequest', { requestId: paused.requestId, errorReason: 'Aborted' }, event.sessionId)
      .catch(() => undefined);
    // Once a script ran, the trail's standing pattern pauses every request here, not only documents.
    const kind = paused.resourceType === 'Document' ? 'navigation' : paused.resourceType;
    this.ledger.held({ method: paused.request.method, url: paused.request.url, kind });
    return true;
  }

  private onEvent(event: CdpEvent): void {
    switch (event.method) {
      case 'Network.requestWillBeSent': {
        const sent = event.params as { requestId: string; request: { url: string; method: string }; type?: string };
        // A redirect reuses the request id, and is judged again by its new URL.
        this.inflight.started(`${event.sessionId}:${sent.requestId}`);
        if (sent.type === 'Document' || this.allowed.allows(sent.request.url)) return;
        this.ledger.held({ method: sent.request.method, url: sent.request.url, kind: sent.type ?? 'Other' });
        return;
      }
      case 'Network.loadingFinished':
      case 'Network.loadingFailed':
        this.inflight.ended(`${event.sessionId}:${String(event.params['requestId'])}`);
        return;
      case 'Network.webSocketCreated': {
        const url = String(event.params['url']);
        if (!this.allowed.allows(url)) this.ledger.held({ method: 'WebSocket', url, kind: 'WebSocket' });
        return;
      }
      case 'Target.attachedToTarget': {
        // A frame that moves into its own process while the tab is held is held too. Our commands follow the frame
        // registry's, which resumes the frame only once its own are answered, so none of its requests precede ours.
        const info = event.params['targetInfo'] as { type: string };
        if (!this.arming.active || info.type !== 'iframe') return;
        const sessionId = String(event.params['sessionId']);
        this.arming.track(sessionId);
        void this.armSession(sessionId).catch(() => undefined);
        return;
      }
    }
  }
}

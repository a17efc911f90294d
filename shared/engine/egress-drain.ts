// How long the egress hold outlives a script's result: until what the script queued without awaiting it has run.
import type { Cdp } from './cdp.js';
import { withDeadline } from './deadline.js';

/**
 * The most a drain waits. A timer the script set for 0 ms runs before ours (same task queue, first in first out), and
 * every promise job before any timer, so one turn of the page's event loop covers `setTimeout(send)` and un-awaited
 * promise chains that wait on nothing; a chain that waits on a request the script started
 * (`fetch(a).then(() => fetch(b))`) is waited out while that request is in flight. A 0 ms timer is not throttled in a
 * hidden tab (measured: 0.35 ms in a background tab of headed Chromium, where a 1 ms timer waits up to 1 s), so the
 * turn stays cheap there. The bound is for a page whose loop is busy or whose setTimeout is replaced, and for a slow
 * request: what a script sends after the drain (a timer with any delay, an EventSource retrying by itself) is not held.
 */
const DRAIN_MS = 500;
const EVENT_LOOP_TURN = 'new Promise((resolve) => setTimeout(resolve))';

/**
 * The drain's first turn as the last line of a script evaluated in REPL mode, which then answers only once it is over:
 * the separate evaluate it saves is a command, a compile and a Debugger.scriptParsed per eval. Its timer is set from a
 * first one, so that it comes after those the script's promise jobs set (a separate drain starts once they have run).
 * A declaration that binds nothing completes empty, so the script's completion value stays its answer; it resolves to
 * 0, as `{}` destructures no undefined. A script that throws, or answers a promise still to be awaited, never reaches
 * it: its caller drains then. A page whose setTimeout is its own (a test page's fake clock) may never fire it: there the
 * turn is not waited for, and what the script's timers send later is the trail's to hold, not this call's to report.
 */
export const TURN_LINE =
  '\nlet {} = await (typeof setTimeout === "function" && Function.prototype.toString.call(setTimeout).includes("[native code]")' +
  ' ? new Promise((resolve) => setTimeout(() => setTimeout(resolve, 0, 0))) : 0);';

/** The requests a held tab started and has not finished, told by Network events; a drain waits for them. */
export class InflightRequests {
  private readonly open = new Set<string>();
  private readonly waiters = new Set<() => void>();

  started(key: string): void {
    this.open.add(key);
  }

  ended(key: string): void {
    this.open.delete(key);
    if (this.open.size === 0) this.wake();
  }

  /** Forgets them all, once the tab is no longer held (Network stops telling). */
  clear(): void {
    this.open.clear();
    this.wake();
  }

  /**
   * One turn of the event loop in the session's process (none when the script's own TURN_LINE ran: `turned`), then as
   * many as the requests still in flight take; never throws.
   */
  async drain(cdp: Cdp, sessionId: string | undefined, turned = false): Promise<void> {
    // A steady eval's script ended in the turn with nothing in flight: no timer for a bound, no promise to wait on.
    if (turned && this.open.size === 0) return;
    let over = false;
    const turn = () =>
      cdp
        .send('Runtime.evaluate', { expression: EVENT_LOOP_TURN, awaitPromise: true }, sessionId)
        .catch(() => undefined);
    const settle = async () => {
      if (!turned) await turn();
      while (!over && this.open.size > 0) {
        await new Promise<void>((resolve) => this.waiters.add(resolve));
        await turn();
      }
    };
    await withDeadline(settle(), DRAIN_MS, () => undefined);
    over = true;
  }

  private wake(): void {
    for (const resolve of this.waiters) resolve();
    this.waiters.clear();
  }
}

// wait_for: text, selector or URL appears (or is gone) in any readable frame; a timeout is an answer, never an error.
import { ToolError } from '../../protocol/errors.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import { wait_for } from '../../tools/act.js';
import type { WaitForArgs } from '../../tools/args.js';
import { withDeadline } from '../deadline.js';
import { urlOf } from '../frame-tree.js';
import type { Frame } from '../frames.js';
import type { PageContext } from '../page-context.js';
import type { WaitCondition } from '../page/wait.js';
import { framesFor } from '../targets.js';

const DEFAULT_TIMEOUT_MS = wait_for.defaultTimeoutMs;
// Longest the wait goes without re-listing frames: frames that appear late, or changes no mutation reports
// (CSS animations, shadow roots), are caught within this.
const ROUND_MS = 1_000;
// A check of a frame gets at least this long, even at the very end of the wait.
const MIN_CHECK_MS = 100;
// The first check gets this long however short the timeout: a busy renderer must not turn a condition that
// already holds into {matched:false}.
const FIRST_CHECK_MS = 1_000;
// Events after which the frame list may have changed, so a new round starts at once.
const FRAME_EVENTS = new Set(['Page.frameNavigated', 'Target.attachedToTarget', 'Page.navigatedWithinDocument']);

interface Outcome {
  matched: boolean;
  frame?: number;
}

export async function waitFor(page: PageContext, args: WaitForArgs, ctx: OperationContext): Promise<OperationResult> {
  const editor = args.editorReady === true ? true : undefined;
  const asked = [args.text, args.selector, args.url, editor].filter((value) => value !== undefined).length;
  if (asked !== 1)
    throw new ToolError(
      'BAD_ARGS',
      'wait_for takes exactly one of text, selector, url or editorReady (gone: true waits for it to go).',
    );
  const timeout = args.timeout ?? DEFAULT_TIMEOUT_MS;
  const want = !args.gone;
  const what =
    args.text !== undefined
      ? `text "${args.text}"`
      : args.selector !== undefined
        ? `selector ${args.selector}`
        : editor
          ? 'a code editor to render'
          : `url "${args.url}"`;
  const started = Date.now();
  const deadline = started + timeout;
  const waiting =
    args.url !== undefined
      ? waitForUrl(page, args.url, want, deadline, ctx)
      : waitInFrames(page, { text: args.text, selector: args.selector, editor }, want, args.frame, deadline, ctx, what);
  // A CDP call inside the loop can hang on a busy renderer; the abandoned loop ends at its next deadline check.
  const cap = Math.max(deadline, started + FIRST_CHECK_MS) + MIN_CHECK_MS - Date.now();
  const outcome = await withDeadline<Outcome>(waiting, cap, () => ({ matched: false }));
  const ms = Date.now() - started;
  if (!outcome.matched) {
    return {
      text: `{matched:false}: ${what} ${want ? 'did not appear' : 'did not go'} within ${timeout} ms`,
      data: { matched: false, ms },
    };
  }
  // f0 is the page itself: only a child frame is worth naming.
  const where = outcome.frame ? ` in f${outcome.frame}` : '';
  return {
    text: `matched: ${what}${want ? '' : ' gone'}${where} (${ms} ms)`,
    data: { matched: true, ms, ...(outcome.frame !== undefined ? { frame: outcome.frame } : {}) },
  };
}

async function waitForUrl(
  page: PageContext,
  fragment: string,
  want: boolean,
  deadline: number,
  ctx: OperationContext,
): Promise<Outcome> {
  const changes = new FrameChanges(page);
  try {
    for (;;) {
      const { frameTree } = await page.cdp.send<{ frameTree: { frame: { url: string; urlFragment?: string } } }>(
        'Page.getFrameTree',
      );
      if (urlOf(frameTree.frame).includes(fragment) === want) return { matched: true };
      if (Date.now() >= deadline) return { matched: false };
      await changes.next(Math.min(deadline - Date.now(), ROUND_MS), ctx.signal);
      stopIfAborted(ctx);
    }
  } finally {
    changes.dispose();
  }
}

/**
 * Each round checks every frame now; if the condition is not met it waits for a mutation that flips it in some
 * frame (an in-page MutationObserver), for the frame list to change, or for the round to end, then checks again.
 * Present: any frame will do. Gone: no frame may still show it.
 */
async function waitInFrames(
  page: PageContext,
  condition: WaitCondition,
  want: boolean,
  frameSpec: number | string | undefined,
  deadline: number,
  ctx: OperationContext,
  what: string,
): Promise<Outcome> {
  const changes = new FrameChanges(page);
  try {
    for (let first = true; ; first = false) {
      const frames = await framesFor(page, frameSpec).catch(() => [] as Frame[]);
      const checkMs = Math.max(first ? FIRST_CHECK_MS : MIN_CHECK_MS, Math.min(deadline - Date.now(), ROUND_MS));
      const states = await Promise.all(frames.map((frame) => holds(page, frame, condition, checkMs)));
      const hit = frames.find((_, i) => states[i] === want);
      if (want && hit) return { matched: true, frame: hit.ordinal };
      if (!want && states.every((state) => state !== true)) return { matched: true };
      const left = deadline - Date.now();
      if (left <= 0) return { matched: false };
      ctx.progress(`waiting for ${what}: ${Math.ceil(left / 1000)} s left`);
      const round = Math.min(left, ROUND_MS);
      const flips = frames
        .filter((_, i) => states[i] !== want && states[i] !== undefined)
        .map((frame) =>
          page.frames
            .call(frame, 'waitForCondition', [condition, want, round])
            .then((flipped) => (flipped ? undefined : never())),
        );
      await Promise.race([changes.next(round, ctx.signal), ...flips.map((flip) => flip.catch(() => never()))]);
      changes.interrupt();
      stopIfAborted(ctx);
    }
  } finally {
    changes.dispose();
  }
}

/**
 * Whether the condition holds in the frame now; undefined when the frame cannot answer: it is navigating, or its
 * script is blocked (a modal alert, a busy loop), which must not hold the wait past its timeout.
 */
async function holds(
  page: PageContext,
  frame: Frame,
  condition: WaitCondition,
  ms: number,
): Promise<boolean | undefined> {
  try {
    return await withDeadline(page.frames.call(frame, 'conditionHolds', [condition]), ms, () => undefined);
  } catch (error) {
    if (error instanceof ToolError && error.code === 'BAD_ARGS') throw error;
    return undefined;
  }
}

function never(): Promise<never> {
  return new Promise(() => undefined);
}

function stopIfAborted(ctx: OperationContext): void {
  if (ctx.signal?.aborted) throw new ToolError('STOPPED', 'wait_for was stopped.');
}

/** Wakes a waiting round when frames commit, attach or change URL. */
class FrameChanges {
  private wake: (() => void) | undefined;
  private readonly unsubscribe: () => void;

  constructor(page: PageContext) {
    this.unsubscribe = page.cdp.on((event) => {
      if (FRAME_EVENTS.has(event.method)) this.wake?.();
    });
  }

  next(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        if (this.wake === done) this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done);
      this.wake = done;
    });
  }

  /** Ends the pending `next` early (its timer too). */
  interrupt(): void {
    this.wake?.();
  }

  dispose(): void {
    this.unsubscribe();
    this.interrupt();
  }
}

// Runs one in-page task per frame in parallel, each bounded in time, so one busy or paused frame cannot stall a whole read.
import { ToolError, type ErrorCode } from '../../protocol/errors.js';
import { noAnswerWithin, withDeadline } from '../deadline.js';
import type { Frame } from '../frames.js';

const POLICY_CODES = new Set<ErrorCode>(['POLICY_DENIED', 'DOMAIN_CONFIRMATION_REQUIRED']);

export type FrameOutcome<T> =
  { frame: Frame; value: T; error?: undefined } | { frame: Frame; value?: undefined; error: string };

// How long a child frame may take before it is reported as not readable; the main frame, which the read is about,
// gets longer, so a heavy page is slow rather than unreadable.
const FRAME_TIMEOUT_MS = 3_000;
const MAIN_FRAME_TIMEOUT_MS = 15_000;

export function perFrame<T>(frames: Frame[], task: (frame: Frame) => Promise<T>): Promise<FrameOutcome<T>[]> {
  return Promise.all(
    frames.map((frame) => settle(frame, task, frame.ordinal === 0 ? MAIN_FRAME_TIMEOUT_MS : FRAME_TIMEOUT_MS)),
  );
}

async function settle<T>(
  frame: Frame,
  task: (frame: Frame) => Promise<T>,
  timeoutMs: number,
): Promise<FrameOutcome<T>> {
  // Its session did not even answer the frame listing: a task would only wait out the same silence.
  if (frame.unreadable !== undefined) return { frame, error: frame.unreadable };
  try {
    const value = await withDeadline(task(frame), timeoutMs, () => {
      throw new Error(noAnswerWithin(timeoutMs));
    });
    return { frame, value };
  } catch (error) {
    return { frame, error: reasonOf(error) };
  }
}

/** A frame's failure as a short reason for the model. */
export function reasonOf(error: unknown): string {
  if (error instanceof ToolError && POLICY_CODES.has(error.code)) {
    return `not allowed by the site policy (${String(error.data?.['site'])}: ${String(error.data?.['have'])})`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/^Frame f\d+ \([^)]*\) /, '')
    .split('\n')[0]!
    .slice(0, 160);
}

/** A frame's URL without query or fragment, which may carry tokens and say little about where the frame is. */
export function urlWithoutQuery(url: string): string {
  return url.replace(/[?#].*$/, '');
}

/** Ref prefix of a frame: none for the main frame, `fN` for frame N. */
export function refPrefix(frame: Frame): string {
  return frame.ordinal === 0 ? '' : `f${frame.ordinal}`;
}

// Snapshot walks of many frames at once: one in-page walk per frame, then each iframe line mapped to the frame it shows.
import type { Frame } from '../frames.js';
import type { PageContext } from '../page-context.js';
import type { FrameOutline } from '../page/snapshot-frame.js';
import { perFrame, refPrefix } from './per-frame.js';

export interface FrameWalk {
  frame: Frame;
  outline?: FrameOutline;
  /** Why the frame could not be read. */
  error?: string;
  /** The frame each iframe line shows, by owner index; undefined when no listed frame belongs to it. */
  owners: Map<number, Frame | undefined>;
}

/**
 * Walks `frames` in parallel (by frameId); `known` is every frame of the tab, to name the frames iframes show. Each
 * walk returns its first `want` lines (null: all), which is all a page of the stitched outline can show of it.
 */
export async function walkFrames(
  page: PageContext,
  frames: Frame[],
  known: Frame[],
  want: number | null,
): Promise<Map<string, FrameWalk>> {
  // Every walk starts from the same counter: refs of different frames differ by their prefix, and each world never re-mints.
  const start = page.refCounter.n;
  const outcomes = await perFrame(frames, async (frame) => {
    const outline = await page.snapshotTrust.outline(frame, (trust) =>
      page.frames.call(frame, 'snapshotFrame', [refPrefix(frame), start, want, trust]),
    );
    const owners = new Map<number, Frame | undefined>();
    await Promise.all(
      outline.owners.map(async ([, index]) =>
        owners.set(index, await ownerFrame(page, frame, outline.walk, index, known)),
      ),
    );
    return { outline, owners };
  });
  const walks = new Map<string, FrameWalk>();
  for (const outcome of outcomes) {
    if (outcome.error !== undefined) {
      walks.set(outcome.frame.frameId, { frame: outcome.frame, error: outcome.error, owners: new Map() });
    } else {
      walks.set(outcome.frame.frameId, { frame: outcome.frame, ...outcome.value });
      page.refCounter.n = Math.max(page.refCounter.n, outcome.value.outline.counter);
    }
  }
  return walks;
}

/** The frame an iframe element shows: DOM.describeNode names the content frame of a frame owner, out-of-process ones too. */
async function ownerFrame(
  page: PageContext,
  frame: Frame,
  walk: number,
  index: number,
  known: Frame[],
): Promise<Frame | undefined> {
  try {
    const objectId = await page.frames.call(frame, 'snapshotOwner', [walk, index], { returnHandle: true });
    try {
      const { node } = await page.cdp.send<{ node: { frameId?: string } }>(
        'DOM.describeNode',
        { objectId },
        frame.sessionId,
      );
      return known.find((candidate) => candidate.frameId === node.frameId);
    } finally {
      page.frames.release(frame, [objectId]);
    }
  } catch {
    // The iframe went away mid-walk: its line stays, marked as showing no known frame.
    return undefined;
  }
}

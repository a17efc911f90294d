// Where an element is in the top viewport (CSS px), through every frame it sits in, out-of-process ones included:
// its box for a screenshot, and its visible, uncovered centre for pointer input.
import { ToolError } from '../protocol/errors.js';
import { CdpCommandError } from './cdp.js';
import type { Frame } from './frames.js';
import type { AimPoint } from './page/aim.js';
import type { PageContext } from './page-context.js';
import { callOnElement, type ElementHandle } from './targets.js';

export interface Point {
  x: number;
  y: number;
}

export interface Box extends Point {
  width: number;
  height: number;
}

/**
 * Where mouse input for an element goes: `x`, `y` in CSS px of the viewport of the session `sessionId` roots (the
 * top viewport for the tab's own session, undefined). Input goes to the element's own session rather than through
 * the top one: Chrome's browser-side routing did not deliver top-session mouse input into an out-of-process frame
 * nested in a same-process iframe (measured, Chromium 156), while each renderer hit-tests its own frames reliably.
 */
export interface Aim extends Point {
  what: string;
  sessionId?: string;
  /** The same point in the top viewport, where a drag across frames is carried on. */
  top: Point;
}

/**
 * Scrolls the element into view, finds its visible centre and checks nothing covers it, in its own frame and in
 * every frame above it.
 */
export async function aim(page: PageContext, handle: ElementHandle): Promise<Aim> {
  if (handle.frame.parentFrameId === undefined) return topAim(await callOnElement(page, handle, 'aimPoint', [true]));
  await revealInFrames(page, handle);
  const chain = await frameChain(page, handle.frame);
  const [offsets, local] = await Promise.all([
    frameOffsets(page, chain),
    callOnElement(page, handle, 'aimPoint', [false]),
  ]);
  const own = offsets[0]!;
  const point = { x: local.x + own.x, y: local.y + own.y };
  // The hit test in the element's frame cannot see a dialog of the page above it covering the whole iframe.
  await Promise.all(
    chain.slice(1).map(async (ancestor, index) => {
      const at = offsets[index + 1]!;
      const child = offsets[index]!;
      const cover = await page.frames.call(ancestor, 'frameOwnerAt', [
        point.x - at.x,
        point.y - at.y,
        child.x - at.x,
        child.y - at.y,
      ]);
      if (cover === 'outside')
        throw new ToolError('NOT_VISIBLE', `${local.what} is outside the visible part of its frame.`);
      if (cover) throw new ToolError('OBSCURED', `${cover} covers ${local.what} (in frame f${handle.frame.ordinal}).`);
    }),
  );
  const root = offsets[sessionRoot(chain, 0)]!;
  return { x: point.x - root.x, y: point.y - root.y, what: local.what, sessionId: handle.frame.sessionId, top: point };
}

/** A main-frame aim point, already in the top viewport and for the tab's own session. */
export function topAim(local: AimPoint): Aim {
  return { ...local, top: { x: local.x, y: local.y } };
}

/** Scrolls the element into view (its frames too) and answers its border box in top-viewport coordinates. */
export async function revealedBox(page: PageContext, handle: ElementHandle): Promise<Box> {
  await page.cdp.send('DOM.scrollIntoViewIfNeeded', { objectId: handle.objectId }, handle.frame.sessionId);
  const { quads } = await page.cdp.send<{ quads: number[][] }>(
    'DOM.getContentQuads',
    { objectId: handle.objectId },
    handle.frame.sessionId,
  );
  if (quads.length === 0) throw new ToolError('NOT_VISIBLE', 'The element has no box on screen.');
  const xs = quads.flatMap((quad) => [quad[0]!, quad[2]!, quad[4]!, quad[6]!]);
  const ys = quads.flatMap((quad) => [quad[1]!, quad[3]!, quad[5]!, quad[7]!]);
  // Quads come relative to the viewport of the element's own session, whose root frame may be an out-of-process iframe.
  const origin = await sessionOrigin(page, handle.frame);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x: x + origin.x, y: y + origin.y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/**
 * For a child frame, scrolls the element into view in its frame and in every frame above it. CDP does this across
 * processes, which a script inside a cross-origin frame cannot. The main frame scrolls itself in `aimPoint`.
 */
export async function revealInFrames(page: PageContext, handle: ElementHandle): Promise<void> {
  if (handle.frame.parentFrameId === undefined) return;
  // A node with no layout box fails here; aimPoint then names why (hidden, no size) better than CDP can.
  await page.cdp
    .send('DOM.scrollIntoViewIfNeeded', { objectId: handle.objectId }, handle.frame.sessionId)
    .catch((error: unknown) => {
      if (!(error instanceof CdpCommandError)) throw error;
    });
}

/** Top-viewport position of the viewport of the session holding `frame`, the origin its quads are measured from. */
async function sessionOrigin(page: PageContext, frame: Frame): Promise<Point> {
  if (frame.sessionId === undefined) return { x: 0, y: 0 };
  const chain = await frameChain(page, frame);
  return (await frameOffsets(page, chain.slice(sessionRoot(chain, 0))))[0]!;
}

/** The frame and its ancestors, innermost first, ending at the main frame. */
async function frameChain(page: PageContext, frame: Frame): Promise<Frame[]> {
  const byId = new Map((await page.frames.list()).map((candidate) => [candidate.frameId, candidate]));
  const chain = [frame];
  for (let parentId = frame.parentFrameId; parentId !== undefined;) {
    const parent = byId.get(parentId);
    if (!parent) throw new ToolError('FRAME_NOT_FOUND', `The frame holding f${frame.ordinal} is gone.`);
    chain.push(parent);
    parentId = parent.parentFrameId;
  }
  return chain;
}

/**
 * Top-viewport position of each frame's own viewport, in chain order. An iframe's box model comes relative to the
 * viewport of its session's root frame (same-process frames already include their parents' offsets), so a frame's
 * position is its iframe's content box plus the position of the session root that box is measured in.
 */
async function frameOffsets(page: PageContext, chain: Frame[]): Promise<Point[]> {
  const last = chain.length - 1;
  const boxes = await Promise.all(
    chain.slice(0, last).map((frame, index) => ownerContentBox(page, frame, chain[index + 1]!)),
  );
  const offsets: Point[] = new Array<Point>(chain.length);
  offsets[last] = { x: 0, y: 0 };
  for (let index = last - 1; index >= 0; index--) {
    const base = offsets[sessionRoot(chain, index + 1)]!;
    offsets[index] = { x: boxes[index]!.x + base.x, y: boxes[index]!.y + base.y };
  }
  return offsets;
}

/** Index in the chain of the frame that roots the session of chain[index]: the outermost frame sharing it. */
function sessionRoot(chain: Frame[], index: number): number {
  let root = index;
  while (root + 1 < chain.length && chain[root + 1]!.sessionId === chain[index]!.sessionId) root++;
  return root;
}

/** Top-left of the content box (inside border and padding) of the iframe holding `frame`, as its parent's session sees it. */
async function ownerContentBox(page: PageContext, frame: Frame, parent: Frame): Promise<Point> {
  try {
    const { backendNodeId } = await page.cdp.send<{ backendNodeId: number }>(
      'DOM.getFrameOwner',
      { frameId: frame.frameId },
      parent.sessionId,
    );
    const { model } = await page.cdp.send<{ model: { content: number[] } }>(
      'DOM.getBoxModel',
      { backendNodeId },
      parent.sessionId,
    );
    return { x: model.content[0]!, y: model.content[1]! };
  } catch (error) {
    if (!(error instanceof CdpCommandError)) throw error;
    throw new ToolError('NOT_VISIBLE', `Frame f${frame.ordinal} has no box on screen (its iframe is hidden or gone).`);
  }
}

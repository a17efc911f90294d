// An element's box in the top page's viewport (CSS px), through any out-of-process iframes it sits in.
import { ToolError } from '../protocol/errors.js';
import type { Frame } from './frames.js';
import type { PageContext } from './page-context.js';
import type { ElementHandle } from './targets.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Scrolls the element into view (its frames too) and answers its border box in top-viewport coordinates. */
export async function revealedBox(page: PageContext, handle: ElementHandle): Promise<Box> {
  await page.cdp.send('DOM.scrollIntoViewIfNeeded', { objectId: handle.objectId }, handle.frame.sessionId);
  const { quads } = await page.cdp.send<{ quads: number[][] }>('DOM.getContentQuads', { objectId: handle.objectId }, handle.frame.sessionId);
  if (quads.length === 0) throw new ToolError('NOT_VISIBLE', 'The element has no box on screen.');
  const xs = quads.flatMap((quad) => [quad[0]!, quad[2]!, quad[4]!, quad[6]!]);
  const ys = quads.flatMap((quad) => [quad[1]!, quad[3]!, quad[5]!, quad[7]!]);
  const box = { x: Math.min(...xs), y: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) };
  const offset = await sessionOffset(page, handle.frame);
  return { ...box, x: box.x + offset.x, y: box.y + offset.y };
}

/**
 * Quads come relative to the viewport of the element's own session (same-process frames already include their
 * iframe offsets). For an out-of-process frame, add its iframe's content box in the parent session, up to the top.
 */
async function sessionOffset(page: PageContext, frame: Frame): Promise<{ x: number; y: number }> {
  if (frame.sessionId === undefined) return { x: 0, y: 0 };
  const frames = await page.frames.list();
  const byId = new Map(frames.map((candidate) => [candidate.frameId, candidate]));
  let root = frame;
  for (let parent = byId.get(root.parentFrameId ?? ''); parent && parent.sessionId === frame.sessionId; parent = byId.get(parent.parentFrameId ?? '')) {
    root = parent;
  }
  const parent = byId.get(root.parentFrameId ?? '');
  if (!parent) return { x: 0, y: 0 };
  const { backendNodeId } = await page.cdp.send<{ backendNodeId: number }>('DOM.getFrameOwner', { frameId: root.frameId }, parent.sessionId);
  const { model } = await page.cdp.send<{ model: { content: number[] } }>('DOM.getBoxModel', { backendNodeId }, parent.sessionId);
  const above = await sessionOffset(page, parent);
  return { x: model.content[0]! + above.x, y: model.content[1]! + above.y };
}

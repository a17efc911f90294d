// scroll: move the page or an element by dx/dy or to an edge, or bring a target into view; answers where it ended.
import { ToolError } from '../../protocol/errors.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { ScrollArgs } from '../../tools/args.js';
import { revealInFrames } from '../geometry.js';
import type { ScrollPosition } from '../page/scrolling.js';
import type { PageContext } from '../page-context.js';
import { callOnElement, framesFor, resolveTarget } from '../targets.js';
import { namesElement } from './pointer.js';

/**
 * Scrolls in the page (element.scrollBy, instant) rather than with wheel events: it moves exactly dx/dy at once,
 * fires the scroll events virtual lists listen to, works in a background tab, and the position it answers is final.
 */
export async function scroll(page: PageContext, args: ScrollArgs, _ctx: OperationContext): Promise<OperationResult> {
  const dx = args.dx ?? 0;
  const dy = args.dy ?? 0;
  const to = args.to ?? null;
  const moves = dx !== 0 || dy !== 0 || to !== null;
  // A background tab renders no frames, and scroll events, lazy loading and infinite lists all wait for one.
  await page.input.focused();
  if (!namesElement(args)) {
    if (!moves) throw new ToolError('BAD_ARGS', 'Give dx/dy, to (top or bottom), or a target to bring into view.');
    const [frame] = await framesFor(page, args.frame);
    page.frames.require(frame!, 'act');
    return reply(await page.frames.call(frame!, 'scrollPage', [dx, dy, to]));
  }
  const handle = await resolveTarget(page, args, 'act');
  try {
    if (moves) return reply(await callOnElement(page, handle, 'scrollElement', [dx, dy, to]), args.element);
    await revealInFrames(page, handle);
    const what = await callOnElement(page, handle, 'revealElement');
    return { text: `scrolled ${args.element ?? what} into view` };
  } finally {
    page.frames.release(handle.frame, [handle.objectId]);
  }
}

function reply(position: ScrollPosition, element?: string): OperationResult {
  const what = position.what === 'page' ? 'page' : (element ?? position.what);
  return { text: `scrolled ${what} to ${position.x},${position.y} (max ${position.maxX},${position.maxY})` };
}

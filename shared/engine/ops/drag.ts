// drag: press on an element or point, move to another in steps, release. Where the page starts an HTML5 drag, it is
// carried on as drag events (dragenter, dragover, drop with the page's own DataTransfer); else the moves are a pointer
// drag (sliders, sortable lists, canvas). Any frame, out-of-process ones included; the page reports what changed.
import { ToolError } from '../../protocol/errors.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { DragArgs } from '../../tools/args.js';
import { withDeadline } from '../deadline.js';
import type { Frame } from '../frames.js';
import type { Point } from '../geometry.js';
import type { DragData, DragInput, MouseInput } from '../input.js';
import type { PageContext } from '../page-context.js';
import { pointerTarget, type Aimed } from './pointer.js';

// Points between press and release. Pointer moves go out at once: the renderer merges those of one frame (the page
// gets them as coalesced events) and the release flushes the last, where waiting for a frame per move costs about a
// second each in a background tab of the person's Chrome (measured). Drag events pass every point.
const STEPS = 8;
// The browser hands an intercepted drag over a moment after the move that started it.
const DRAG_DATA_MS = 2_000;

export async function drag(page: PageContext, args: DragArgs, _ctx: OperationContext): Promise<OperationResult> {
  await page.input.focused();
  const from = await pointerTarget(page, args);
  const to = await pointerTarget(page, args.to, 'noted');
  const path = pathOf(from.top, to.top);
  await page.frames.call(from.frame, 'watchDragStart');
  const how = await page.input.interceptingDrags(async (started) => {
    const mouse = mouseOn(from);
    const session = { sessionId: from.sessionId };
    await page.input.send(
      [mouse('mouseMoved', from.top, 0), mouse('mousePressed', from.top, 1), mouse('mouseMoved', path[0]!, 1)],
      session,
    );
    const data = await dragData(page, from.frame, started);
    if (!data) {
      await page.input.send(
        [...path.slice(1).map((point) => mouse('mouseMoved', point, 1)), mouse('mouseReleased', to.top, 0)],
        session,
      );
      return 'pointer drag';
    }
    const event = (type: DragInput['type'], point: Point): DragInput => ({ kind: 'drag', type, ...point, data });
    const enter = (point: Point) => [event('dragEnter', point), event('dragOver', point)];
    // The browser sends each drag event to the frame under it, but enters no frame of another process the drag moves
    // into (measured, Chromium 156): a drop target there is entered where it is, or its drop never fires.
    const moves =
      from.sessionId === to.sessionId
        ? [...enter(path[0]!), ...path.slice(1).map((point) => event('dragOver', point))]
        : [...enter(path[0]!), ...enter(to.top)];
    try {
      // One at a time: each may land in another frame, and the browser finds that frame before it sends the event on.
      await page.input.send([...moves, event('drop', to.top)], { paced: true });
    } catch (error) {
      // Left mid-drag, the page would take every later click for part of it.
      await page.input.send([event('dragCancel', to.top)]).catch(() => undefined);
      throw error;
    } finally {
      // The source's renderer still holds the button down: the release ends the drag there (dragend).
      await page.input.send([mouse('mouseReleased', to.top, 0)], session).catch(() => undefined);
    }
    return 'drag and drop';
  });
  return { text: `dragged ${args.element ?? from.what} to ${to.what} (${how})` };
}

/** Top-viewport points from the press to the drop, the drop last; the first is where a drag starts. */
function pathOf(from: Point, to: Point): Point[] {
  return Array.from({ length: STEPS }, (_, index) => {
    const share = (index + 1) / STEPS;
    return { x: from.x + (to.x - from.x) * share, y: from.y + (to.y - from.y) * share };
  });
}

/**
 * Mouse events for the source's session, which keeps the pressed button and any pointer capture: a top-viewport point
 * is moved into that session's viewport, which may lie outside it (a drag out of an iframe).
 */
function mouseOn(from: Aimed): (type: MouseInput['type'], point: Point, buttons: number) => MouseInput {
  const dx = from.top.x - from.x;
  const dy = from.top.y - from.y;
  return (type, point, buttons) => ({
    kind: 'mouse',
    type,
    x: point.x - dx,
    y: point.y - dy,
    button: type === 'mouseMoved' && buttons === 0 ? 'none' : 'left',
    buttons,
    clickCount: type === 'mouseMoved' ? 0 : 1,
  });
}

/**
 * The drag the press and first move started, if any. The source frame says whether its dragstart ran uncancelled
 * (after a frame, so a move the renderer held for its next frame has been handled); a drag it started is then waited
 * for. One the point started in a frame below it is taken only if it has already arrived.
 */
async function dragData(page: PageContext, frame: Frame, started: Promise<DragData>): Promise<DragData | undefined> {
  const began = await page.frames.call(frame, 'dragStarted').catch(() => false);
  if (!began) return Promise.race([started, Promise.resolve(undefined)]);
  return withDeadline(started, DRAG_DATA_MS, () => {
    throw new ToolError('CDP_ERROR', 'The page started a drag, but the browser did not hand it over.');
  });
}

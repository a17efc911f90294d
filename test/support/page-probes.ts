// Reads page state for assertions: the page's own globals, a frame by URL, and one element's properties.
import type { Frame } from '../../shared/engine/frames.js';
import type { PageContext } from '../../shared/engine/page-context.js';

/** Evaluates an expression in the main frame's own (page) world, where the fixture's scripts keep their state. */
export async function pageEval<T>(page: PageContext, expression: string): Promise<T> {
  const { result, exceptionDetails } = await page.cdp.send<{
    result: { value: T };
    exceptionDetails?: { text: string };
  }>('Runtime.evaluate', {
    expression,
    returnByValue: true,
  });
  if (exceptionDetails) throw new Error(`page eval failed: ${exceptionDetails.text}`);
  return result.value;
}

/** The frame whose URL contains `piece`. */
export async function frameWith(page: PageContext, piece: string): Promise<Frame> {
  const frame = (await page.frames.list()).find((candidate) => candidate.url.includes(piece));
  if (!frame) throw new Error(`no frame with ${piece}`);
  return frame;
}

/** Runs `fn` (a function source taking the element as `this`) on the element `selector` picks in `frame`. */
export async function onElement<T>(page: PageContext, frame: Frame, selector: string, fn: string): Promise<T> {
  const objectId = await page.frames.call(frame, 'pickElement', [{ selector }, undefined], { returnHandle: true });
  const { result } = await page.cdp.send<{ result: { value: T } }>(
    'Runtime.callFunctionOn',
    { objectId, functionDeclaration: fn, returnByValue: true },
    frame.sessionId,
  );
  return result.value;
}

/** The text content of the element `selector` picks in `frame`. */
export function textOf(page: PageContext, frame: Frame, selector: string): Promise<string> {
  return onElement<string>(page, frame, selector, 'function () { return this.textContent; }');
}

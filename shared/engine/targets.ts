// Resolves a tool's Target (ref, selector, role+name) to one live element in one frame, or a typed error.
import { ToolError } from '../protocol/errors.js';
import type { Target } from '../protocol/target.js';
import type { AccessLevel } from '../policy/levels.js';
import type { Frame } from './frames.js';
import type { PageContext } from './page-context.js';
import { keptHandle } from './frame-worlds.js';
import type { PageArgs, PageCallTail, PageFunction, PageReturn } from './page/library.js';

export interface ElementHandle {
  frame: Frame;
  /** Remote object id in our isolated world of `frame`. */
  objectId: string;
}

const REF_PATTERN = /^(?:f(\d+))?e(\d+)$/;

/** Frames a lookup searches: the one `spec` names (ordinal or a piece of its URL), else all, main first. */
export async function framesFor(page: PageContext, spec: number | string | undefined): Promise<Frame[]> {
  const frames = await page.frames.list();
  if (spec === undefined) return frames;
  const match =
    typeof spec === 'number' || /^f?\d+$/.test(spec)
      ? frames.filter((frame) => frame.ordinal === Number(String(spec).replace(/^f/, '')))
      : frames.filter((frame) => frame.url.includes(spec));
  if (match.length === 0) throw new ToolError('FRAME_NOT_FOUND', `No frame matches ${JSON.stringify(spec)}.`);
  return match;
}

/** The one frame `spec` names; a piece of a URL that several frames share is refused, naming them. */
export async function oneFrame(page: PageContext, spec: number | string): Promise<Frame> {
  const frames = await framesFor(page, spec);
  if (frames.length > 1) {
    throw new ToolError(
      'AMBIGUOUS',
      `frame ${JSON.stringify(spec)} matches ${frames.map((frame) => `f${frame.ordinal}`).join(', ')}; pass its index.`,
    );
  }
  return frames[0]!;
}

export async function resolveRef(page: PageContext, ref: string): Promise<ElementHandle> {
  const parsed = REF_PATTERN.exec(ref.trim());
  if (!parsed) throw new ToolError('REF_UNKNOWN', `"${ref}" is not a ref; refs look like e12 or f1e7.`);
  const ordinal = Number(parsed[1] ?? 0);
  const minted = Number(parsed[2]) < page.refCounter.n;
  const frame = await page.frames.frameByOrdinal(ordinal).catch(() => {
    throw new ToolError(minted ? 'REF_EXPIRED' : 'REF_UNKNOWN', `${ref}: its frame f${ordinal} is gone.`);
  });
  try {
    const objectId = await page.frames.call(frame, 'elementForRef', [ref.trim()], { returnHandle: true });
    return { frame, objectId };
  } catch (error) {
    // A ref this tab minted that the page no longer knows means the page changed under it.
    if (error instanceof ToolError && error.code === 'REF_UNKNOWN' && minted) {
      throw new ToolError('REF_EXPIRED', `${ref} is from before the page changed.`);
    }
    throw error;
  }
}

/**
 * Exactly one element for the target, searching frames main-first; ambiguity across frames is an error too.
 * `need` is what the caller will do with it: finding it reads its frame, acting on it needs its frame's site to allow acts.
 */
export async function resolveTarget(
  page: PageContext,
  target: Target,
  need: AccessLevel = 'read',
): Promise<ElementHandle> {
  const handle = await findTarget(page, target);
  if (!page.frames.allows(handle.frame, need)) {
    page.frames.release(handle.frame, [handle.objectId]);
    page.frames.require(handle.frame, need);
  }
  return handle;
}

async function findTarget(page: PageContext, target: Target): Promise<ElementHandle> {
  if (target.ref !== undefined) return resolveRef(page, target.ref);
  if (target.selector === undefined && target.role === undefined) {
    throw new ToolError('BAD_ARGS', 'Name the element with one of ref, selector, or role (+ name).');
  }
  const spec = { selector: target.selector, role: target.role, name: target.name };
  const frames = await framesFor(page, target.frame);
  if (frames.length === 1) {
    const frame = frames[0]!;
    return {
      frame,
      objectId: await page.frames.call(frame, 'pickElement', [spec, target.nth], { returnHandle: true }),
    };
  }
  const counts = await Promise.all(
    frames.map((frame) => page.frames.call(frame, 'countElements', [spec]).catch(() => 0)),
  );
  const total = counts.reduce((sum, count) => sum + count, 0);
  let index = target.nth ?? 0;
  if (total === 0) throw new ToolError('NOT_FOUND', `Nothing matches in ${frames.length} frames.`);
  if (total > 1 && target.nth === undefined) {
    const where = frames
      .filter((_, i) => counts[i]! > 0)
      .map((frame) => `f${frame.ordinal}`)
      .join(', ');
    throw new ToolError(
      'AMBIGUOUS',
      `${total} elements match (frames ${where}); pass nth (0-based), frame, or use a ref.`,
    );
  }
  for (const [i, frame] of frames.entries()) {
    const count = counts[i]!;
    if (index < count) {
      return { frame, objectId: await page.frames.call(frame, 'pickElement', [spec, index], { returnHandle: true }) };
    }
    index -= count;
  }
  throw new ToolError('NOT_FOUND', `${total} elements match; there is no nth=${target.nth}.`);
}

let keeps = 0;

/** The one frame a lookup of `target` searches, when it is looked up by selector or role there alone; else undefined. */
export async function lookupFrame(page: PageContext, target: Target): Promise<Frame | undefined> {
  if (target.ref !== undefined || (target.selector === undefined && target.role === undefined)) return undefined;
  const frames = await framesFor(page, target.frame);
  return frames.length === 1 ? frames[0] : undefined;
}

/**
 * The target's element in `frame` (lookupFrame's) and `name` called on it, in one round trip: the call goes out right
 * behind the lookup, in order on the same session, and takes the element the lookup kept in the page. `found` hears
 * of the element as soon as the lookup answers. A frame that does not allow `need` gets no call: the lookup alone,
 * as resolveTarget, refuses. The caller releases the handle; on a failure it is released here.
 */
export async function resolveAndCall<N extends PageFunction>(
  page: PageContext,
  target: Target,
  frame: Frame,
  need: AccessLevel,
  name: N,
  args: PageArgs<N, [string]>,
  found?: (handle: ElementHandle) => void,
): Promise<{ handle: ElementHandle; value: PageReturn<N> }> {
  const onHandle = (handle: ElementHandle) => callOnElement(page, handle, name, ...([args] as ElementArgs<N>));
  // Refused there: resolveTarget says so once it found the element, as it would have without the call.
  const allowed = page.frames.allows(frame, need);
  const keep = ++keeps;
  const spec = { selector: target.selector, role: target.role, name: target.name };
  const picking = allowed
    ? page.frames.call(frame, 'pickElement', [spec, target.nth, keep], { returnHandle: true })
    : resolveTarget(page, target, need).then((handle) => handle.objectId);
  const tail = [args, { handles: [keptHandle(keep)] }] as PageCallTail<N, [string], false>;
  const calling = allowed ? page.frames.call<N, [string], false>(frame, name, ...tail) : undefined;
  // Awaited once the lookup answered; a failed lookup fails it too, and the lookup's error stands for both.
  calling?.catch(() => undefined);
  const handle = { frame, objectId: await picking };
  try {
    found?.(handle);
    const value = await (calling ?? onHandle(handle)).catch((error: unknown) => {
      if (!calling || !(error instanceof ToolError && error.code === 'INTERNAL')) throw error;
      // The kept element did not reach the call (the frame's world was made anew between them): call on the handle.
      return onHandle(handle);
    });
    return { handle, value };
  } catch (error) {
    page.frames.release(frame, [handle.objectId]);
    throw error;
  }
}

/** `args` as callOnElement takes them: the parameters after the element, left out only when there are none. */
type ElementArgs<N extends PageFunction> =
  [] extends PageArgs<N, [string]> ? [args?: PageArgs<N, [string]>] : [args: PageArgs<N, [string]>];

/** Calls `__cm.<name>(element, ...args)` on a resolved element in its own frame, typed as `frames.call` is. */
export function callOnElement<N extends PageFunction>(
  page: PageContext,
  handle: ElementHandle,
  name: N,
  ...[args]: ElementArgs<N>
): Promise<PageReturn<N>> {
  // The tail is the one `call` takes for one handle; TS cannot see that through the conditional types while N is open.
  const tail = [args, { handles: [handle.objectId] }] as PageCallTail<N, [string], false>;
  return page.frames.call<N, [string], false>(handle.frame, name, ...tail);
}

// click and hover: aim at an element's visible centre (or a viewport point) and send trusted mouse input to its frame's session.
import { ToolError } from '../../protocol/errors.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { Target } from '../../protocol/target.js';
import type { ClickArgs, HoverArgs } from '../../tools/args.js';
import { aim, type Aim } from '../geometry.js';
import type { Frame } from '../frames.js';
import type { MouseInput } from '../input.js';
import { MODIFIER_BITS, type Modifier } from '../keys.js';
import type { PageContext } from '../page-context.js';
import { activationAimed, aimToActivate, type ActivationOptions } from '../activation.js';
import { lookupFrame, resolveAndCall, resolveTarget, type ElementHandle } from '../targets.js';

type Button = 'left' | 'right' | 'middle';

const BUTTON_BITS: Record<Button, number> = { left: 1, right: 2, middle: 4 };

interface ClickOptions {
  button: Button;
  count: number;
  modifiers: number;
}

export async function click(page: PageContext, args: ClickArgs, _ctx: OperationContext): Promise<OperationResult> {
  const button = args.button ?? 'left';
  const count = Math.max(1, Math.floor(args.count ?? 1));
  const modifiers = args.modifiers ?? [];
  await page.input.focused();
  // A middle click, or a click with Control, Meta or Shift held, opens a link in a new window.
  const newWindow = button === 'middle' || modifiers.some((modifier) => modifier !== 'Alt');
  const target = await pointerTarget(page, args, { newWindow });
  await clickAt(page, target, { button, count, modifiers: modifierBits(modifiers) });
  const verb = `${count === 2 ? 'double-' : ''}${button === 'left' ? '' : `${button}-`}clicked`;
  const times = count > 2 ? ` ${count} times` : '';
  const held = modifiers.length > 0 ? ` with ${modifiers.join('+')}` : '';
  return { text: `${verb} ${args.element ?? target.what}${times}${held}` };
}

export async function hover(page: PageContext, args: HoverArgs, _ctx: OperationContext): Promise<OperationResult> {
  await page.input.focused();
  const target = await pointerTarget(page, args);
  // A mouse move is rAF-aligned in the renderer and can wait a whole frame (about 1 s in a throttled tab). A
  // release of no button is discrete, so it flushes the move at once, and reaches no listener (there is no mouseup
  // without a button).
  const at = { kind: 'mouse', x: target.x, y: target.y } as const;
  await page.input.send(
    [
      { ...at, type: 'mouseMoved' },
      { ...at, type: 'mouseReleased', button: 'none' },
    ],
    { sessionId: target.sessionId },
  );
  return { text: `hovered ${args.element ?? target.what}` };
}

/** Whether the target names an element (ref, selector, role) rather than a viewport point or nothing. */
export function namesElement(target: Target): boolean {
  return target.ref !== undefined || target.selector !== undefined || target.role !== undefined;
}

/** Clicks an element once, checked like `click`; answers its description. */
export async function clickElement(page: PageContext, handle: ElementHandle): Promise<string> {
  await page.input.focused();
  const target = await aimToActivate(page, handle);
  await clickAt(page, target, { button: 'left', count: 1, modifiers: 0 });
  return target.what;
}

/** A pointer target: where input for it goes, and the frame it names (the main one for a viewport point). */
export type Aimed = Aim & { frame: Frame };

/**
 * The point the target names: an element's checked centre, or a viewport x,y taken as given. `activates`: the press
 * will activate the element, so what that opens (a new window, a download) is judged before any input is sent;
 * `noted`: the act window is told what the input lands on, with nothing judged (a drag's drop target).
 */
export async function pointerTarget(
  page: PageContext,
  target: Target,
  activates?: { newWindow: boolean } | 'noted',
): Promise<Aimed> {
  if (namesElement(target)) {
    const frame = activates && activates !== 'noted' ? await lookupFrame(page, target) : undefined;
    if (frame && frame.parentFrameId === undefined)
      return pickAndAim(page, target, frame, activates as ActivationOptions);
    const handle = await resolveTarget(page, target, 'act');
    try {
      // Read while the checks below run: what the press activates, for the gate on risky acts.
      if (activates) page.input.note({ handle });
      const aimed = activates && activates !== 'noted' ? aimToActivate(page, handle, activates) : aim(page, handle);
      return { ...(await aimed), frame: handle.frame };
    } finally {
      page.frames.release(handle.frame, [handle.objectId]);
    }
  }
  if (target.x === undefined || target.y === undefined) {
    throw new ToolError('BAD_ARGS', 'Name the element with ref, selector or role (+ name), or give both x and y.');
  }
  const [main, ...children] = await page.frames.list();
  // A point may fall on an iframe, and the press would land in its document: only where every frame allows acts.
  const refused = children.find((frame) => !page.frames.allows(frame, 'act'));
  if (refused) {
    try {
      page.frames.require(refused, 'act');
    } catch (error) {
      const denied = error as ToolError;
      throw denied.reworded(
        `${denied.message} Input by x,y could land in it; name the element instead.`,
        'Use a ref from `snapshot`.',
      );
    }
  }
  const point = { x: target.x, y: target.y };
  if (activates) page.input.note({ frame: main!, point });
  const what = await page.frames.call(main!, 'describeAt', [target.x, target.y]);
  return { ...point, what: `${what} at ${target.x},${target.y}`, top: point, frame: main! };
}

/**
 * A main-frame element found and judged and aimed at in one round trip: the lookup and activationAim go out together,
 * and where an act window judges the frame, the gate's verdict on what the press activates comes back with the aim.
 */
async function pickAndAim(
  page: PageContext,
  target: Target,
  frame: Frame,
  activates: ActivationOptions,
): Promise<Aimed> {
  // Where the act window judges the frame, the gate's verdict on the element comes back with the aim; else what the
  // press activates is noted as soon as the lookup answers, and read (or found exempt) while the aim runs.
  const judged = page.input.judges(frame);
  const found = judged ? undefined : (handle: ElementHandle) => page.input.note({ handle });
  const { handle, value } = await resolveAndCall(
    page,
    target,
    frame,
    'act',
    'activationAim',
    [activates.newWindow === true, judged],
    found,
  );
  try {
    if (judged) page.input.note(value.verdict ? { handle, verdict: value.verdict } : { handle });
    return { ...(await activationAimed(page, handle, value)), frame };
  } finally {
    page.frames.release(frame, [handle.objectId]);
  }
}

/**
 * Moves, then presses and releases `count` times with rising clickCount (so count 2 fires click, click, dblclick
 * like a person's double click). All events are queued at once: one session keeps their order, and the move, which
 * the renderer would hold until the next frame, is flushed by the press behind it.
 */
async function clickAt(page: PageContext, point: Aim, options: ClickOptions): Promise<void> {
  const base = { kind: 'mouse', x: point.x, y: point.y, modifiers: options.modifiers } as const;
  const events: MouseInput[] = [{ ...base, type: 'mouseMoved' }];
  for (let clickCount = 1; clickCount <= options.count; clickCount++) {
    const press = { ...base, button: options.button, clickCount };
    events.push({ ...press, type: 'mousePressed', buttons: BUTTON_BITS[options.button] });
    events.push({ ...press, type: 'mouseReleased', buttons: 0 });
  }
  await page.input.send(events, { sessionId: point.sessionId });
}

function modifierBits(modifiers: Modifier[]): number {
  return modifiers.reduce((bits, modifier) => bits | MODIFIER_BITS[modifier], 0);
}

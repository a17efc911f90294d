// type and press: focus the target (or use what has focus), send trusted keys and text on the tab's top session, check it landed.
import { ToolError } from '../../protocol/errors.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { Target } from '../../protocol/target.js';
import type { PressArgs, TypeArgs } from '../../tools/args.js';
import { focusedField, type Field } from '../focused-field.js';
import type { Frame } from '../frames.js';
import type { InputEvent, KeyInput } from '../input.js';
import { MODIFIER_BITS, modifierKey, parseCombo, type KeyCombo, type KeyDefinition } from '../keys.js';
import type { InputState } from '../page/editing.js';
import type { PageContext } from '../page-context.js';
import { callOnElement, lookupFrame, resolveAndCall, resolveTarget, type ElementHandle } from '../targets.js';
import { setEditorBuffer, withEditorValue } from './editor-set.js';
import { clickElement, namesElement } from './pointer.js';

type TypeMode = 'insert' | 'verbatim';

export async function type(page: PageContext, args: TypeArgs, _ctx: OperationContext): Promise<OperationResult> {
  if (args.mode === 'set') return setEditorBuffer(page, args);
  await page.input.focused();
  const mode = args.mode ?? 'insert';
  const clear = args.clear ?? false;
  // Text typed as input over a selected value replaces it; a verbatim paste and an empty text keep the keyed clear.
  const replace = clear && mode === 'insert' && args.text !== '';
  const field = namesElement(args) ? await focusTarget(page, args, true, replace) : await focusedField(page.frames);
  // What Enter will activate (the field's form) is read while the text goes in; the gate judges from Enter on.
  if (args.submit) page.input.note({ frame: field.frame });
  const landed = await typeIntoField(page, field, args.text, { mode, clear });
  if (args.submit) await pressCombo(page, field.frame, parseCombo('Enter'));
  const chars = [...args.text].length;
  const reformatted = landed.match === 'reformatted' ? ' (the field changed its whitespace)' : '';
  const submitted = args.submit ? ', then pressed Enter' : '';
  return {
    text: `typed ${chars} char${chars === 1 ? '' : 's'} into ${args.element ?? landed.what}${reformatted}${submitted}`,
  };
}

export async function press(page: PageContext, args: PressArgs, _ctx: OperationContext): Promise<OperationResult> {
  const combo = parseCombo(args.keys.trim() || args.keys);
  await page.input.focused();
  const field = namesElement(args) ? await focusTarget(page, args, false, false) : undefined;
  page.input.note(field ? { frame: field.frame } : {});
  await pressCombo(page, field?.frame, combo);
  const where = args.element ?? field?.state.what;
  return { text: `pressed ${args.keys}${where ? ` in ${where}` : ''}` };
}

/** Replaces the element's content with `text` by keyboard (fill_form's path for contenteditable fields). */
export async function typeIntoElement(page: PageContext, handle: ElementHandle, text: string): Promise<void> {
  await page.input.focused();
  await typeIntoField(page, await focusHandle(page, handle, true, false), text, { mode: 'insert', clear: true });
}

/**
 * Presses a combo: modifiers down in order, the key, then modifiers up in reverse, with the bits CDP expects. `frame`:
 * where the keys land, when known (else where focus is).
 */
function pressCombo(page: PageContext, frame: Frame | undefined, combo: KeyCombo): Promise<void> {
  return page.input.send(comboKeys(combo), { frame });
}

/** The key events of one press of `combo`; `commands`: the editing commands its key runs. */
function comboKeys(combo: KeyCombo, commands?: string[]): KeyInput[] {
  const keys: KeyInput[] = [];
  let bits = 0;
  for (const modifier of combo.modifiers) {
    bits |= MODIFIER_BITS[modifier];
    keys.push(keyEvent('rawKeyDown', modifierKey(modifier), bits));
  }
  // Chrome types nothing for a chord with Control, Alt or Meta; Shift only changes what is typed.
  const text = bits & ~MODIFIER_BITS.Shift ? undefined : combo.key.text;
  keys.push(keyEvent(text ? 'keyDown' : 'rawKeyDown', combo.key, bits, text, commands));
  keys.push(keyEvent('keyUp', combo.key, bits));
  for (const modifier of [...combo.modifiers].reverse()) {
    bits &= ~MODIFIER_BITS[modifier];
    keys.push(keyEvent('keyUp', modifierKey(modifier), bits));
  }
  return keys;
}

function keyEvent(
  type: KeyInput['type'],
  key: KeyDefinition,
  modifiers: number,
  text?: string,
  commands?: string[],
): KeyInput {
  return {
    kind: 'key',
    type,
    key: key.key,
    code: key.code,
    windowsVirtualKeyCode: key.keyCode,
    nativeVirtualKeyCode: key.keyCode,
    location: key.location ?? 0,
    modifiers,
    ...(text ? { text, unmodifiedText: text } : {}),
    ...(commands ? { commands } : {}),
  };
}

/** Focuses the target: in the page for a field that takes it (fast, and no banner can be in the way), else by a real click. */
async function focusTarget(page: PageContext, target: Target, editableOnly: boolean, replace: boolean): Promise<Field> {
  const frame = await lookupFrame(page, target);
  if (frame) {
    // Found and focused in one round trip: focusForInput goes out right behind the lookup.
    const { handle, value } = await resolveAndCall(page, target, frame, 'act', 'focusForInput', [
      editableOnly,
      replace,
    ]);
    try {
      return await focused(page, handle, value);
    } finally {
      page.frames.release(frame, [handle.objectId]);
    }
  }
  const handle = await resolveTarget(page, target, 'act');
  try {
    return await focusHandle(page, handle, editableOnly, replace);
  } finally {
    page.frames.release(handle.frame, [handle.objectId]);
  }
}

async function focusHandle(
  page: PageContext,
  handle: ElementHandle,
  editableOnly: boolean,
  replace: boolean,
): Promise<Field> {
  return focused(page, handle, await callOnElement(page, handle, 'focusForInput', [editableOnly, replace]));
}

/** The field once focusForInput answered: its state, or (it took no focus that way) focus by a click. */
async function focused(page: PageContext, handle: ElementHandle, state: InputState | null): Promise<Field> {
  if (state) return { frame: handle.frame, state };
  // A widget that is not itself a field (a code editor's surface, a custom input) routes focus to its real field
  // when a person clicks it; element.focus() on it would not.
  await clickElement(page, handle);
  return { frame: handle.frame, state: await page.frames.call(handle.frame, 'inputState') };
}

interface Landed {
  what: string;
  match: 'exact' | 'reformatted';
}

/**
 * Clears if asked, sends the text, then reads the field back: never a false success.
 * insert: one Input.insertText, as typed input (line breaks without Enter keydowns, so a chat box does not send
 * each line); code editors apply their typing helpers. verbatim: offered as a paste first, which editors insert
 * literally (Monaco runs every typed character, newline included, through auto-indent), else as insert.
 */
async function typeIntoField(
  page: PageContext,
  field: Field,
  text: string,
  options: { mode: TypeMode; clear: boolean },
): Promise<Landed> {
  const before = await withEditorValue(page, field.frame, field.state);
  if (!before.editable) {
    throw new ToolError(
      'INPUT_NOT_LANDED',
      `Nothing editable has focus (focus is on ${before.what}); no keys were sent.`,
    );
  }
  const events: InputEvent[] = [];
  // A field whose value focusForInput selected is replaced by the text itself.
  if (options.clear && !before.selected) {
    // The platform's select-all chord, so editors that bind it (Monaco, CodeMirror) select their whole document;
    // the selectAll command does it where the chord alone would not (macOS fields get edit commands from the OS).
    const selectAll = { modifiers: [before.mac ? 'Meta' : 'Control'], key: parseCombo('a').key } satisfies KeyCombo;
    events.push(...comboKeys(selectAll, ['selectAll']), ...comboKeys(parseCombo('Backspace')));
  }
  // The clear and the text go out as one queue of input (the session keeps its order): one round trip, not three.
  // A paste is a page call, so it waits for the clear to be taken.
  const paste = options.mode === 'verbatim' && text !== '';
  if (text && !paste) events.push({ kind: 'text', text });
  const lead = { frame: field.frame, leadIn: true };
  // The read-back goes out right behind the text, one round trip instead of two (a code editor's is read after).
  let early: Promise<InputState | null> | undefined;
  const readBehind = () => {
    early = page.frames.call(field.frame, 'insertedState', [text]).catch(() => null);
  };
  if (events.length > 0) await page.input.send(events, lead, text && !paste && !before.editor ? readBehind : undefined);
  let pasted = false;
  if (paste) {
    pasted = await page.frames.call(field.frame, 'pasteText', [text]);
    if (!pasted) await page.input.send([{ kind: 'text', text }], lead);
  }
  const after =
    (await landedEarly(page, field.frame, early)) ?? (await readBack(page, field.frame, pasted ? text : undefined));
  return { what: after.what, match: checkLanded(before, after, text, options.clear) };
}

/**
 * The read sent behind the text, when it saw the text go in (it answers null when Chrome ran it before the renderer
 * took the text): a read after the input, as readBack's. Else undefined, and the field is read again.
 */
async function landedEarly(
  page: PageContext,
  frame: Frame,
  early: Promise<InputState | null> | undefined,
): Promise<InputState | undefined> {
  const state = await early;
  // A code editor's buffer is read through its API (withEditorValue): focus that moved into one is read again.
  if (!state || state.editor) return undefined;
  page.input.readBack(frame);
  return state;
}

// Monaco takes a paste at once but applies it a moment later (measured here: within 500 ms in a
// background tab); the read-back waits that long for the text to show before it judges.
const PASTE_SETTLE_MS = 2_000;

/** The focused field's state after typing; for a paste into a code editor, once the pasted text is in its buffer. */
async function readBack(page: PageContext, frame: Frame, pasted: string | undefined): Promise<InputState> {
  const deadline = Date.now() + PASTE_SETTLE_MS;
  for (;;) {
    const state = await withEditorValue(page, frame, await page.frames.call(frame, 'typedState'));
    page.input.readBack(frame);
    if (pasted === undefined || !state.editor || containsText(state.value, pasted) || Date.now() >= deadline)
      return state;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function checkLanded(before: InputState, after: InputState, text: string, cleared: boolean): Landed['match'] {
  if (!after.editable)
    throw new ToolError('INPUT_NOT_LANDED', `Focus left the field while typing; it is on ${after.what} now.`);
  // A single-line input drops line breaks from what it is given.
  const wanted = after.multiline ? text : text.replace(/[\r\n]/g, '');
  const holds = after.secret ? `${after.value.length} characters` : JSON.stringify(clip(after.value));
  const match = containsText(after.value, wanted);
  const unchanged = !cleared && text !== '' && after.value === before.value;
  if (!match || unchanged)
    throw new ToolError('INPUT_NOT_LANDED', `The text did not land in ${after.what}; it holds ${holds}.`);
  if (cleared && before.value && !wanted.includes(before.value) && after.value.includes(before.value)) {
    throw new ToolError('INPUT_NOT_LANDED', `${after.what} was not cleared; it still holds its old text.`);
  }
  return match;
}

/** exact: the text is there as sent; reformatted: there but with whitespace changed (an editor's indentation). */
function containsText(value: string, text: string): Landed['match'] | undefined {
  const plain = (s: string) => s.replace(/\r\n?/g, '\n').replace(/\u00a0/g, ' ');
  if (plain(value).includes(plain(text))) return 'exact';
  const squash = (s: string) => plain(s).replace(/\s+/g, ' ').trim();
  return squash(value).includes(squash(text)) ? 'reformatted' : undefined;
}

function clip(value: string): string {
  return value.length > 80 ? `${value.slice(0, 79)}…` : value;
}

// In-page focus and text-field state for typing: what has focus, whether it takes text, and what it holds.

export interface InputState {
  /** The focused element takes typed text (text-like input, textarea, contenteditable). */
  editable: boolean;
  /** Its value (inputs, textareas) or text (contenteditable); '' when not editable. */
  value: string;
  what: string;
  /** Line breaks survive in it (a single-line input drops them). */
  multiline: boolean;
  /** A password field: its value is never echoed back. */
  secret: boolean;
  /** Focus sits in a child frame of this document. */
  inChildFrame: boolean;
  /** This document has focus (an ancestor of the focused frame has it too). */
  hasFocus: boolean;
  /** macOS: select-all is Meta+A there. */
  mac: boolean;
  /** It is part of a code editor, whose buffer its API reads better than the element shows it. */
  editor: boolean;
  /** focusForInput selected the text field's whole value, asked to replace it: the text sent next replaces it. */
  selected?: boolean;
}

/** The focused element, looking into open shadow roots. */
export function deepActiveElement(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** Whether the element takes typed text. */
export function isEditable(element: Element): boolean {
  if (element instanceof HTMLTextAreaElement) return !element.disabled && !element.readOnly;
  if (element instanceof HTMLInputElement) {
    const typed = ['text', 'search', 'url', 'tel', 'email', 'password', 'number'].includes(element.type);
    return typed && !element.disabled && !element.readOnly;
  }
  // An EditContext element (Monaco since 0.5x) takes text though it is neither a field nor contenteditable.
  const editContext = (element as HTMLElement & { editContext?: unknown }).editContext;
  return element instanceof HTMLElement && (element.isContentEditable || !!editContext);
}

/** State of whatever has focus in this frame. */
export function inputState(): InputState {
  __cm.disarmReplace();
  const active = __cm.deepActiveElement();
  const editable = !!active && __cm.isEditable(active);
  const field = active as HTMLInputElement | null;
  const formField = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement;
  // An EditContext element (Monaco) shows no text of its own: the editor keeps the lines around the caret there.
  const editContext = (active as (HTMLElement & { editContext?: { text: string } | null }) | null)?.editContext;
  const what = active ? __cm.describeElement(active) : 'nothing';
  // Kept for typedState: the field typed into keeps this description, read before its text went in.
  __cm.watchInserted();
  (globalThis as { __cmDescribed?: Described }).__cmDescribed = { element: active, what };
  return {
    editable,
    value: !editable ? '' : formField ? field!.value : (editContext?.text ?? (active as HTMLElement).innerText),
    what,
    multiline: editable && !(active instanceof HTMLInputElement),
    secret: active instanceof HTMLInputElement && active.type === 'password',
    inChildFrame: active?.localName === 'iframe' || active?.localName === 'frame',
    hasFocus: document.hasFocus(),
    mac: /Mac/i.test(navigator.platform),
    editor: editable && !!active!.closest(__cm.editorRoots()),
  };
}

/**
 * inputState after typing, forcing no style or layout when focus is still on the text field inputState last described:
 * its value, type and flags are read anew (a field turned into a password one is still redacted), its description
 * (a label's visibility is a style read) is kept. The input just sent left style and layout dirty on a large page, so
 * a description read here cost a whole layout (20 ms at 50,000 elements). Anything else is read in full.
 */
export function typedState(): InputState {
  __cm.disarmReplace();
  const active = __cm.deepActiveElement();
  const described = (globalThis as { __cmDescribed?: Described }).__cmDescribed;
  const field = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement ? active : null;
  if (!field || described?.element !== field) return __cm.inputState();
  const editable = __cm.isEditable(field);
  return {
    editable,
    value: editable ? field.value : '',
    what: described.what,
    multiline: editable && field instanceof HTMLTextAreaElement,
    secret: field instanceof HTMLInputElement && field.type === 'password',
    inChildFrame: false,
    hasFocus: document.hasFocus(),
    mac: /Mac/i.test(navigator.platform),
    editor: editable && !!field.closest(__cm.editorRoots()),
  };
}

/** What inputState last described: the focused element, and the text its last trusted input event put in it since. */
interface Described {
  element: Element | null;
  what: string;
  inserted?: string | null;
}

/**
 * Notes on inputState's description the text each trusted input event puts in the described element. Only the
 * browser makes a trusted one, once the text went in: a page cannot fake it. Set once per world.
 */
export function watchInserted(): void {
  const kept = globalThis as { __cmDescribed?: Described; __cmWatchingInserted?: boolean };
  if (kept.__cmWatchingInserted) return;
  kept.__cmWatchingInserted = true;
  const noteInserted = (event: Event) => {
    const described = kept.__cmDescribed;
    if (event.isTrusted && described && event.composedPath()[0] === described.element)
      described.inserted = (event as InputEvent).data;
  };
  addEventListener('input', noteInserted, true);
}

/**
 * typedState for a read sent right behind the text, not after the browser took it: Chrome now and then runs such a
 * read first (about 1 in 25 at 10,000 elements), so it answers only once the described field's own input event carried
 * `text`, and null otherwise (the engine reads again once the text was taken). No disarm before that: armReplace's
 * listener still has to select the value as the text arrives.
 */
export function insertedState(text: string): InputState | null {
  const described = (globalThis as { __cmDescribed?: Described }).__cmDescribed;
  return described?.inserted === text ? __cm.typedState() : null;
}

/**
 * Focuses the element for input and answers the resulting state, or null when it cannot take focus this way
 * (not editable though `editableOnly`, or focus() did nothing). An element we focus gets its caret at the end, so
 * typing appends; one that already had focus keeps its caret. `replace`: a plain text field (not a code editor's,
 * not contenteditable) gets its whole value selected instead (armReplace), so the one insertText sent next replaces it,
 * with no select-all and delete keys before it.
 */
export function focusForInput(target: Element, editableOnly: boolean, replace: boolean): InputState | null {
  // A code editor (or its container) takes focus at its own input element.
  const element = (!__cm.isEditable(target) && __cm.editorInput(target)) || target;
  const editable = __cm.isEditable(element);
  if (editableOnly && !editable) return null;
  if (!__cm.composedContains(element, __cm.deepActiveElement())) {
    (element as HTMLElement).focus();
    if (!__cm.composedContains(element, __cm.deepActiveElement())) return null;
    if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
      try {
        element.setSelectionRange(element.value.length, element.value.length);
      } catch {
        // email and number inputs have no selection API; the browser's own caret placement stands.
      }
    } else if (editable) {
      const range = document.createRange();
      range.selectNodeContents(element);
      range.collapse(false);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
    }
  }
  const state = __cm.inputState();
  const field = element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement;
  if (!replace || !field || !state.editable || state.editor) return state;
  __cm.armReplace(element);
  return { ...state, selected: true };
}

/** Kept between focusForInput and the text it readied a field for: the field and its one-shot listener. */
interface ArmedReplace {
  field: HTMLInputElement | HTMLTextAreaElement;
  listener: () => void;
}

/**
 * Selects the field's whole value, and selects it again as the text goes in: a page's focus handler may move the caret
 * a moment later (an input mask does, on a timer), before the text arrives. Chrome inserts at the selection as
 * beforeinput left it. select() reaches email and number inputs too, which have no setSelectionRange.
 */
export function armReplace(field: HTMLInputElement | HTMLTextAreaElement): void {
  field.select();
  // A second on, the text is not coming (its send failed): the field is left to whatever types into it next.
  const until = performance.now() + 1_000;
  const listener = () => {
    __cm.disarmReplace();
    if (performance.now() < until) field.select();
  };
  // Capture: ahead of the field's own listeners, which see the value about to be replaced as selected.
  field.addEventListener('beforeinput', listener, true);
  (globalThis as { __cmArmed?: ArmedReplace }).__cmArmed = { field, listener };
}

/** Removes the listener armReplace left, once its text went in or could not (the read-back, the next focus). */
export function disarmReplace(): void {
  const kept = globalThis as { __cmArmed?: ArmedReplace };
  kept.__cmArmed?.field.removeEventListener('beforeinput', kept.__cmArmed.listener, true);
  delete kept.__cmArmed;
}

/**
 * Offers text to the focused element as a paste. Code editors (Monaco, CodeMirror, ProseMirror…) handle a paste
 * themselves and insert it literally, with none of the auto-indent or auto-close they apply to typed characters.
 * Answers whether the page took it; plain fields do not, and get the text as typed input instead.
 */
export function pasteText(text: string): boolean {
  const target = __cm.deepActiveElement();
  if (!target) return false;
  const clipboardData = new DataTransfer();
  clipboardData.setData('text/plain', text);
  return !target.dispatchEvent(
    new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true, composed: true }),
  );
}

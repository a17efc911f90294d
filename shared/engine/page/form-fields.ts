// In-page form filling: choose <select> options, set text fields the way frameworks notice, judge checkboxes and radios.

export type FillValue = string | boolean | string[];

/** done: set here; click: needs a real click (checkbox, radio); keyboard: needs typed input (contenteditable). */
export type FillOutcome = 'done' | 'click' | 'keyboard';

export interface FieldResult {
  what: string;
  outcome?: FillOutcome;
  code?: string;
  message?: string;
}

export interface ChosenOptions {
  what: string;
  labels: string[];
}

/** Selects options of a <select> by value, else by visible label (exact, then case-insensitive); fires input + change. */
export function chooseOptions(element: Element, wanted: string[]): ChosenOptions {
  const what = __cm.describeElement(element);
  if (!(element instanceof HTMLSelectElement))
    throw new Error(`NOT_SELECT: ${what} is a <${element.localName}>, not a <select>.`);
  if (element.disabled) throw new Error(`DISABLED: ${what} is disabled.`);
  if (wanted.length !== 1 && !element.multiple)
    throw new Error(`BAD_ARGS: ${what} takes exactly one option, not ${wanted.length}.`);
  const options = Array.from(element.options);
  const label = (option: HTMLOptionElement) => option.label.replace(/\s+/g, ' ').trim();
  const chosen = wanted.map((value) => {
    const option =
      options.find((candidate) => candidate.value === value) ??
      options.find((candidate) => label(candidate) === value.trim()) ??
      options.find((candidate) => label(candidate).toLowerCase() === value.trim().toLowerCase());
    if (!option) {
      const listed = options
        .slice(0, 8)
        .map(
          (candidate) => `"${label(candidate)}"${candidate.value !== label(candidate) ? ` (${candidate.value})` : ''}`,
        );
      const more = options.length > 8 ? `, … ${options.length - 8} more` : '';
      throw new Error(
        `OPTION_NOT_FOUND: ${what} has no option "${value}"; it has ${listed.join(', ') || 'no options'}${more}.`,
      );
    }
    if (option.disabled) throw new Error(`OPTION_NOT_FOUND: option "${label(option)}" of ${what} is disabled.`);
    return option;
  });
  for (const option of options) option.selected = chosen.includes(option);
  element.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  element.dispatchEvent(new Event('change', { bubbles: true }));
  return { what, labels: chosen.map(label) };
}

/** Fills one field in place where the page can take it that way; says what the engine must do for the rest. */
export function fillField(element: Element, value: FillValue): FillOutcome {
  const what = __cm.describeElement(element);
  if (element instanceof HTMLSelectElement) {
    __cm.chooseOptions(element, Array.isArray(value) ? value : [String(value)]);
    return 'done';
  }
  if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) {
    const wanted = value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;
    if (wanted === undefined) throw new Error(`BAD_ARGS: ${what} takes true or false, not ${JSON.stringify(value)}.`);
    if (element.disabled) throw new Error(`DISABLED: ${what} is disabled.`);
    if (element.checked === wanted) return 'done';
    if (!wanted && element.type === 'radio')
      throw new Error(`BAD_ARGS: ${what} cannot be unchecked; set another radio of its group to true.`);
    return 'click';
  }
  if (typeof value !== 'string') throw new Error(`BAD_ARGS: ${what} takes text, not ${JSON.stringify(value)}.`);
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
    if (element.disabled) throw new Error(`DISABLED: ${what} is disabled.`);
    if (element.readOnly) throw new Error(`NOT_EDITABLE: ${what} is read-only.`);
    if (
      element instanceof HTMLInputElement &&
      ['button', 'submit', 'reset', 'image', 'file', 'hidden'].includes(element.type)
    ) {
      throw new Error(
        `NOT_EDITABLE: ${what} is an input of type ${element.type}${element.type === 'file' ? '; use upload_file' : ''}.`,
      );
    }
    // This runs in our isolated world, where `value` is the browser's own setter. A framework's per-element value
    // hook (React's value tracker) lives in the page's world, misses this write, and so reports the change when the
    // input event below arrives, as it would for typing.
    element.value = value;
    if (element.value !== value) {
      const holds =
        element instanceof HTMLInputElement && element.type === 'password' ? '' : `; it holds "${element.value}"`;
      throw new Error(`BAD_ARGS: ${what} (type ${element.type}) does not take that value${holds}.`);
    }
    element.dispatchEvent(
      new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertReplacementText' }),
    );
    element.dispatchEvent(new Event('change', { bubbles: true }));
    return 'done';
  }
  if (element instanceof HTMLElement && element.isContentEditable) return 'keyboard';
  throw new Error(`NOT_EDITABLE: ${what} is not a form field.`);
}

/** Fills several fields of this frame in one call: the elements come first, then their values in the same order. */
export function fillFields(...input: [...Element[], FillValue[]]): FieldResult[] {
  const values = input.pop() as FillValue[];
  return (input as Element[]).map((element, index) => {
    const what = __cm.describeElement(element);
    try {
      return { what, outcome: __cm.fillField(element, values[index]!) };
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      const coded = /^([A-Z_]{4,}): (.*)$/s.exec(text);
      return { what, code: coded?.[1] ?? 'INTERNAL', message: coded?.[2] ?? text };
    }
  });
}

/** A visible label of a form control, for controls styled by hiding the real input behind their label. */
export function visibleLabel(element: Element): Element {
  const labels = __cm.labelsOf(element);
  const label = labels.find(
    (candidate) => candidate.checkVisibility({ visibilityProperty: true }) && candidate.getClientRects().length > 0,
  );
  if (!label) throw new Error(`NOT_VISIBLE: ${__cm.describeElement(element)} is hidden and has no visible label.`);
  return label;
}

// type and press on real Chromium, in background tabs: text lands where asked or the call says it did not.
import { describe, expect, it } from 'vitest';
import { parseCombo } from '../../shared/engine/keys.js';
import { press, type } from '../../shared/engine/ops/keyboard.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { frameWith, onElement, pageEval } from '../support/page-probes.js';

const suite = useEngineSuite();

interface LoggedKey {
  key: string;
  code: string;
  keyCode: number;
  ctrl: boolean;
  shift: boolean;
  trusted: boolean;
  target: string;
}

const value = (page: PageContext, id: string) =>
  pageEval<string>(page, `document.getElementById(${JSON.stringify(id)}).value`);
const keys = (page: PageContext) => pageEval<LoggedKey[]>(page, 'keys.splice(0)');

describe('key combos', () => {
  it('parses names, aliases, characters and chords', () => {
    expect(parseCombo('Enter').key).toMatchObject({ key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' });
    expect(parseCombo('esc').key.key).toBe('Escape');
    expect(parseCombo('Control+A')).toMatchObject({
      modifiers: ['Control'],
      key: { key: 'a', code: 'KeyA', keyCode: 65 },
    });
    expect(parseCombo('Shift+Tab')).toMatchObject({ modifiers: ['Shift'], key: { key: 'Tab', keyCode: 9 } });
    expect(parseCombo('Meta+Enter').modifiers).toEqual(['Meta']);
    expect(parseCombo('Shift+a').key).toMatchObject({ key: 'A', text: 'A', code: 'KeyA' });
    expect(parseCombo('Shift+1').key).toMatchObject({ key: '!', code: 'Digit1' });
    expect(parseCombo('Control++').key).toMatchObject({ key: '+', code: 'Equal' });
    expect(parseCombo('F12').key).toMatchObject({ key: 'F12', keyCode: 123 });
    expect(parseCombo('ctrl+shift+ArrowLeft')).toMatchObject({
      modifiers: ['Control', 'Shift'],
      key: { key: 'ArrowLeft', keyCode: 37 },
    });
    expect(() => parseCombo('Control+Foo')).toThrow(/Unknown key "Foo"/);
  });
});

describe('type', () => {
  it('appends to a field it focuses, or replaces with clear', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    expect((await type(page, { selector: '#name', text: ' world' }, ctx)).text).toBe(
      'typed 6 chars into textbox "Name"',
    );
    expect(await value(page, 'name')).toBe('old world');
    expect(
      (await type(page, { selector: '#name', text: 'new', clear: true, element: 'the name field' }, ctx)).text,
    ).toBe('typed 3 chars into the name field');
    expect(await value(page, 'name')).toBe('new');
  });

  it('clears an editor and types as one queue of input that lands in order', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    // A contenteditable is cleared by keys (editors bind select-all themselves), then the text follows in the queue.
    await pageEval(
      page,
      `const editor = document.getElementById('editor');
      editor.textContent = 'old';
      window.inputs = [];
      editor.addEventListener('input', (e) =>
        inputs.push(e.inputType + ':' + e.target.textContent + ':' + keys.length))`,
    );
    await type(page, { selector: '#editor', text: 'Ada Lovelace', clear: true }, ctx);
    expect(await pageEval(page, 'document.getElementById("editor").innerText')).toBe('Ada Lovelace');
    // Each event after the one before: select-all, then the delete, then the text, none overtaking another.
    expect((await keys(page)).map((key) => `${key.key}@${key.target}`)).toEqual([
      'Control@editor',
      'a@editor',
      'Backspace@editor',
    ]);
    expect(await pageEval<string[]>(page, 'inputs')).toEqual(['deleteContentBackward::3', 'insertText:Ada Lovelace:3']);
  });

  it("replaces a text field's whole value with the text alone, wherever its caret or selection was", async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    await pageEval(
      page,
      `window.inputs = [];
      for (const field of document.querySelectorAll('input, textarea'))
        field.addEventListener('input', (e) => inputs.push(e.target.id + ':' + e.inputType + ':' + e.target.value));
      document.getElementById('notes').value = 'line 1\\nline 2';
      document.getElementById('pw').value = 'secret';
      document.getElementById('second').value = 'middle';
      document.getElementById('second').focus();
      document.getElementById('second').setSelectionRange(2, 4);`,
    );
    const cases = [
      ['second', 'Ada Lovelace'],
      ['name', 'new'],
      ['notes', 'one two'],
      ['pw', 'hunter2'],
      ['email', 'ada@example.com'],
      ['count', '7'],
      ['short', 'xy'],
    ] as const;
    for (const [id, text] of cases) {
      await type(page, { selector: `#${id}`, text, clear: true }, ctx);
      expect(await value(page, id)).toBe(text);
    }
    // One input event a field, with its new value: no select-all or delete keys before the text.
    expect(await pageEval<string[]>(page, 'inputs')).toEqual(cases.map(([id, text]) => `${id}:insertText:${text}`));
    expect(await keys(page)).toEqual([]);
  });

  it('replaces the whole value even when the page moves the caret a moment after focus', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    // An input mask's way: the caret goes to the end on a timer after focus, before the text arrives.
    await pageEval(
      page,
      `const masked = document.getElementById('second');
      masked.value = 'Ada';
      masked.addEventListener('focus', () => setTimeout(() => masked.setSelectionRange(3, 3)));`,
    );
    await type(page, { selector: '#second', text: 'Ada Lovelace', clear: true }, ctx);
    expect(await value(page, 'second')).toBe('Ada Lovelace');
    // Typing on without clear inserts, replacing nothing: nothing of the replace is left armed. Where it goes is the
    // mask's to say, whose timer may move the caret after the first text landed.
    await type(page, { selector: '#second', text: '!' }, ctx);
    expect(['Ada Lovelace!', 'Ada! Lovelace']).toContain(await value(page, 'second'));
  });

  it('still refuses a read-only field and a text cut short by maxlength when clearing', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    await pageEval(
      page,
      `document.getElementById('second').value = 'kept'; document.getElementById('second').readOnly = true`,
    );
    expect((await failure(type(page, { selector: '#second', text: 'new', clear: true }, ctx))).code).toBe(
      'INPUT_NOT_LANDED',
    );
    expect(await value(page, 'second')).toBe('kept');
    const cut = await failure(type(page, { selector: '#short', text: 'hello', clear: true }, ctx));
    expect(cut.message).toBe('The text did not land in textbox "Short"; it holds "hel".');
  });

  it('types repeatedly into the same field without losing keystrokes', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    await type(page, { selector: '#second', text: 'x' }, ctx);
    for (let i = 0; i < 10; i++) await type(page, { selector: '#second', text: 'abc' }, ctx);
    expect(await value(page, 'second')).toBe(`x${'abc'.repeat(10)}`);
  });

  it("takes a read sent behind the text only once the field's own trusted input event carried that text", async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    const frame = await page.frames.mainFrame();
    await pageEval(
      page,
      'document.getElementById("name").focus(); document.getElementById("name").setSelectionRange(3, 3)',
    );
    expect(await page.frames.call(frame, 'inputState')).toMatchObject({ editable: true, value: 'old' });
    // The page's own input event, naming the very text, is no sign the text went in: the read would come too early.
    await pageEval(page, `document.getElementById("name").dispatchEvent(new InputEvent("input", { data: "abc" }))`);
    expect(await page.frames.call(frame, 'insertedState', ['abc'])).toBeNull();
    await page.input.send([{ kind: 'text', text: 'abc' }], { frame, leadIn: true });
    expect(await page.frames.call(frame, 'insertedState', ['xyz'])).toBeNull();
    expect(await page.frames.call(frame, 'insertedState', ['abc'])).toMatchObject({ value: 'oldabc' });
  });

  it('types lines into a textarea and a contenteditable without Enter keydowns', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    await type(page, { selector: '#notes', text: 'line 1\n    line 2' }, ctx);
    expect(await value(page, 'notes')).toBe('line 1\n    line 2');
    await type(page, { selector: '#editor', text: 'first\nsecond' }, ctx);
    expect(await pageEval(page, 'document.getElementById("editor").innerText')).toBe('first\nsecond');
    // A chat box sends on Enter: typed line breaks must not press it.
    expect((await keys(page)).map((key) => key.key)).not.toContain('Enter');
  });

  it('keeps indentation exactly in verbatim mode, where an auto-indenting editor doubles it for typed input', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    const text = 'def f():\n    if x:\n        return 1';
    await type(page, { selector: '#notes', text, mode: 'verbatim' }, ctx);
    expect(await value(page, 'notes')).toBe(text);
    const typed = await type(page, { selector: '#code', text: '  a\n  b' }, ctx);
    expect(await value(page, 'code')).toBe('  a\n    b');
    expect(typed.text).toBe('typed 7 chars into textbox "Code" (the field changed its whitespace)');
    await type(page, { selector: '#code', text, mode: 'verbatim', clear: true }, ctx);
    expect(await value(page, 'code')).toBe(text);
  });

  it('focuses a widget that is not a field by clicking it, then types into the field it routes to', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    expect((await type(page, { selector: '#surface', text: 'x = 1' }, ctx)).text).toBe(
      'typed 5 chars into textbox "Code"',
    );
    expect(await value(page, 'code')).toBe('x = 1');
  });

  it('types into whatever has focus when no target is given', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    await pageEval(page, 'document.getElementById("second").focus()');
    expect((await type(page, { text: 'hi' }, ctx)).text).toBe('typed 2 chars into textbox "Second"');
    expect(await value(page, 'second')).toBe('hi');
  });

  it('says INPUT_NOT_LANDED, sending nothing, when nothing editable has focus', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    const error = await failure(type(page, { text: 'lost' }, ctx));
    expect(error.code).toBe('INPUT_NOT_LANDED');
    expect(error.message).toContain('focus is on body');
    const button = await failure(type(page, { selector: '#plain', text: 'lost' }, ctx));
    expect(button.code).toBe('INPUT_NOT_LANDED');
    expect(button.message).toContain('button "Plain"');
    expect((await keys(page)).length).toBe(0);
  });

  it('says INPUT_NOT_LANDED when the field keeps less than was typed, never echoing a password', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    const error = await failure(type(page, { selector: '#short', text: 'hello' }, ctx));
    expect(error.code).toBe('INPUT_NOT_LANDED');
    expect(error.message).toBe('The text did not land in textbox "Short"; it holds "hel".');
    await pageEval(page, 'document.getElementById("pw").maxLength = 2');
    const secret = await failure(type(page, { selector: '#pw', text: 'hunter2' }, ctx));
    expect(secret.message).toBe('The text did not land in textbox "Password"; it holds 2 characters.');
  });

  it('reads the field back as it is after the text went in: turned into a password field, or left for another', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    // A "hide" toggle the page flips as the text goes in: the read-back redacts what the field holds now.
    await pageEval(
      page,
      `const short = document.getElementById('short');
       short.addEventListener('input', () => (short.type = 'password'), { once: true });`,
    );
    const hidden = await failure(type(page, { selector: '#short', text: 'hello' }, ctx));
    expect(hidden.message).toBe('The text did not land in textbox "Short"; it holds 3 characters.');
    await pageEval(
      page,
      `const second = document.getElementById('second');
       second.addEventListener('input', () => document.getElementById('plain').focus(), { once: true });`,
    );
    const moved = await failure(type(page, { selector: '#second', text: 'go' }, ctx));
    expect(moved.message).toBe('Focus left the field while typing; it is on button "Plain" now.');
  });

  it('presses Enter after typing with submit', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    const result = await type(page, { selector: '#second', text: 'go', submit: true }, ctx);
    expect(result.text).toBe('typed 2 chars into textbox "Second", then pressed Enter');
    expect(await pageEval(page, 'window.submitted')).toBe(1);
    expect((await keys(page)).filter((key) => key.key === 'Enter')).toEqual([
      expect.objectContaining({ keyCode: 13, trusted: true, target: 'second' }),
    ]);
  });

  it('types into inputs of a cross-origin and of a nested cross-origin frame', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-frames.html'));
    for (const piece of ['direct', 'nested-cross', 'nested-same']) {
      await type(page, { selector: '#child-input', frame: piece, text: `in ${piece}` }, ctx);
      expect(
        await onElement(page, await frameWith(page, piece), '#child-input', 'function () { return this.value; }'),
      ).toBe(`in ${piece}`);
    }
    // Focus now sits in the nested same-origin frame; with no target, typing finds it there.
    expect((await type(page, { text: '!' }, ctx)).text).toBe('typed 1 char into textbox "Child input"');
    expect(
      await onElement(page, await frameWith(page, 'nested-same'), '#child-input', 'function () { return this.value; }'),
    ).toBe('in nested-same!');
    await type(page, { selector: '#child-input', frame: 'direct', text: '?' }, ctx);
    await type(page, { text: '?' }, ctx);
    expect(
      await onElement(page, await frameWith(page, 'direct'), '#child-input', 'function () { return this.value; }'),
    ).toBe('in direct??');
  });
});

describe('press', () => {
  it('Control+A then Backspace clears a field', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    expect((await press(page, { selector: '#name', keys: 'Control+A' }, ctx)).text).toBe(
      'pressed Control+A in textbox "Name"',
    );
    expect((await press(page, { keys: 'Backspace' }, ctx)).text).toBe('pressed Backspace');
    expect(await value(page, 'name')).toBe('');
    expect((await keys(page)).slice(0, 2)).toEqual([
      expect.objectContaining({ key: 'Control', code: 'ControlLeft', keyCode: 17, ctrl: true, trusted: true }),
      expect.objectContaining({ key: 'a', code: 'KeyA', keyCode: 65, ctrl: true, trusted: true }),
    ]);
  });

  it('Shift+Tab moves focus back, and printable keys type', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    await press(page, { selector: '#second', keys: 'Shift+Tab' }, ctx);
    expect(await pageEval(page, 'document.activeElement.id')).toBe('name');
    await press(page, { selector: '#second', keys: 'Shift+a' }, ctx);
    await press(page, { keys: 'b' }, ctx);
    await press(page, { keys: 'Shift+1' }, ctx);
    expect(await value(page, 'second')).toBe('Ab!');
  });

  it('refuses an unknown key before sending anything', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
    expect((await failure(press(page, { keys: 'Control+Nope' }, ctx))).code).toBe('BAD_ARGS');
    expect((await keys(page)).length).toBe(0);
  });
});

// fill_form and select_option on real Chromium, in background tabs: every field kind, frameworks, frames, honest failures.
import { describe, expect, it } from 'vitest';
import { fillForm, selectOption } from '../../shared/engine/ops/forms.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { frameWith, onElement, pageEval } from '../support/page-probes.js';

const suite = useEngineSuite();

const byId = (id: string) => `document.getElementById(${JSON.stringify(id)})`;

describe('fill_form', () => {
  it('fills text, select, multi-select, checkbox, radio, contenteditable and a field in a cross-origin frame in one call', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-forms.html'));
    const result = await fillForm(
      page,
      {
        fields: [
          { selector: '#first', value: 'Ada' },
          { selector: '#bio', value: 'Line 1\nLine 2' },
          { selector: '#color', value: 'Green' },
          { selector: '#tags', value: ['news', 'tech'] },
          { selector: '#agree', value: true },
          { selector: '#news', value: false },
          { selector: '#size-m', value: true },
          { selector: '#born', value: '1815-12-10' },
          { selector: '#styled', value: true },
          { selector: '#rich', value: 'new rich' },
          { selector: '#child-input', frame: 'localhost', value: 'in frame' },
        ],
      },
      ctx,
    );
    expect(result.text).toBe('filled 11 fields');
    expect(
      await pageEval(
        page,
        `[${byId('first')}.value, ${byId('bio')}.value, ${byId('color')}.value, ${byId('born')}.value]`,
      ),
    ).toEqual(['Ada', 'Line 1\nLine 2', 'g', '1815-12-10']);
    expect(await pageEval(page, `[...${byId('tags')}.selectedOptions].map((o) => o.value)`)).toEqual(['news', 'tech']);
    expect(
      await pageEval(
        page,
        `['agree', 'news', 'size-s', 'size-m', 'styled'].map((id) => document.getElementById(id).checked)`,
      ),
    ).toEqual([true, false, false, true, true]);
    expect(await pageEval(page, `${byId('rich')}.innerText`)).toBe('new rich');
    expect(
      await onElement(page, await frameWith(page, 'localhost'), '#child-input', 'function () { return this.value; }'),
    ).toBe('in frame');
    const changes = await pageEval<string[]>(page, 'changes');
    for (const id of ['first', 'bio', 'color', 'tags', 'born'])
      expect(changes, id).toEqual(expect.arrayContaining([`input:${id}`, `change:${id}`]));
    // Checkboxes and radios change by real clicks, so the page's own handlers run.
    const clicks = await pageEval<{ id: string; trusted: boolean }[]>(page, 'clicks');
    expect(clicks).toEqual(['agree', 'news', 'size-m', 'styled'].map((id) => ({ id, trusted: true })));
  });

  it('sets a React-style controlled input so the framework takes the value', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-forms.html'));
    // The fixture really behaves like React: a plain value write from the page's own world is put back.
    await pageEval(
      page,
      `(() => { const input = ${byId('react')}; input.value = 'naive'; input.dispatchEvent(new Event('input', { bubbles: true })); })()`,
    );
    expect(await pageEval(page, `${byId('react')}.value`)).toBe('');
    expect((await fillForm(page, { fields: [{ selector: '#react', value: 'hello' }] }, ctx)).text).toBe(
      'filled 1 field',
    );
    expect(await pageEval(page, `[${byId('react')}.value, ${byId('react-state')}.textContent]`)).toEqual([
      'hello',
      'hello',
    ]);
  });

  it('fills what it can and reports a line per failed field', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-forms.html'));
    const error = await failure(
      fillForm(
        page,
        {
          fields: [
            { selector: '#first', value: 'Ada' },
            { selector: '#locked', value: 'x' },
            { selector: '#nope', value: 'x' },
            { selector: '#color', value: 'Purple' },
            { selector: '#born', value: 'yesterday' },
            { selector: '#size-s', value: false },
            { selector: '#agree', value: 'maybe' },
          ],
        },
        ctx,
      ),
    );
    expect(error.code).toBe('DISABLED');
    const lines = error.message.split('\n');
    expect(lines[0]).toBe('Filled 1 of 7 fields; these failed:');
    expect(lines.slice(1)).toEqual([
      '- field 2: DISABLED: textbox "Locked" is disabled.',
      expect.stringMatching(/^- field 3: NOT_FOUND: selector "#nope": /),
      expect.stringMatching(
        /^- field 4: OPTION_NOT_FOUND: combobox "Color" has no option "Purple"; it has "Pick one" \(\), "Red" \(r\), "Green" \(g\), "Blue" \(b\)\.$/,
      ),
      '- field 5: BAD_ARGS: textbox "Born" (type date) does not take that value; it holds "".',
      '- field 6: BAD_ARGS: radio "Small" cannot be unchecked; set another radio of its group to true.',
      '- field 7: BAD_ARGS: checkbox "I agree" takes true or false, not "maybe".',
    ]);
    expect(await pageEval(page, `${byId('first')}.value`)).toBe('Ada');
  });
});

describe('select_option', () => {
  it('selects by value or by label and fires input and change', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-forms.html'));
    expect((await selectOption(page, { selector: '#color', values: 'r' }, ctx)).text).toBe(
      'selected "Red" in combobox "Color"',
    );
    expect(await pageEval(page, `${byId('color')}.value`)).toBe('r');
    expect((await selectOption(page, { selector: '#color', values: 'green' }, ctx)).text).toBe(
      'selected "Green" in combobox "Color"',
    );
    expect(await pageEval(page, `${byId('color')}.value`)).toBe('g');
    expect(await pageEval(page, 'changes')).toEqual(['input:color', 'change:color', 'input:color', 'change:color']);
    expect((await selectOption(page, { selector: '#tags', values: ['sport', 'tech'] }, ctx)).text).toBe(
      'selected "sport", "tech" in listbox "Tags"',
    );
  });

  it('says NOT_SELECT and OPTION_NOT_FOUND with the options there are', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-forms.html'));
    const notSelect = await failure(selectOption(page, { selector: '#first', values: 'x' }, ctx));
    expect(notSelect.code).toBe('NOT_SELECT');
    expect(notSelect.message).toBe('textbox "First name" is a <input>, not a <select>.');
    const missing = await failure(selectOption(page, { selector: '#color', values: 'Purple' }, ctx));
    expect(missing.code).toBe('OPTION_NOT_FOUND');
    expect(missing.message).toContain('"Red" (r), "Green" (g)');
    expect((await failure(selectOption(page, { selector: '#color', values: 'Blue' }, ctx))).message).toContain(
      'is disabled',
    );
    expect((await failure(selectOption(page, { selector: '#color', values: ['r', 'g'] }, ctx))).code).toBe('BAD_ARGS');
    expect(await pageEval(page, 'changes')).toEqual([]);
  });
});

// find on real Chromium: text, role, name and selector lookups across frames, each answered in its row with working refs.
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../shared/protocol/errors.js';
import { find } from '../../shared/engine/ops/find.js';
import { snapshot } from '../../shared/engine/ops/snapshot.js';
import { callOnElement, resolveRef } from '../../shared/engine/targets.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';

const suite = useEngineSuite();

const withoutRefs = (text: string) => text.replace(/\[ref=(f\d+)?e\d+\]/g, '[ref=$1]');

describe('find', () => {
  it("finds a row of the 500-row table by its text, with the row's link and button refs", async () => {
    const { page } = await suite.browser.open(suite.server.url('table.html'));
    const started = performance.now();
    const result = await find(page, { text: 'row 377' }, ctx);
    console.log(`find text "row 377" on the table: ${(performance.now() - started).toFixed(1)} ms`);
    const lines = result.text.split('\n');
    expect(lines[0]).toBe('1 match for text "row 377":');
    expect(withoutRefs(lines[1]!)).toBe(
      '- row: link "Row 377" [ref=] | user377@example.com | Viewer | $471.25 | button "Delete" [ref=]',
    );
    const buttonRef = /button "Delete" \[ref=(e\d+)\]/.exec(lines[1]!)![1]!;
    const button = await resolveRef(page, buttonRef);
    expect((await callOnElement(page, button, 'elementHtml', [200])).text).toContain('data-row="377"');
  });

  it('answers role + name lookups in their rows, with a count when more match than shown', async () => {
    const { page } = await suite.browser.open(suite.server.url('table.html'));
    const result = await find(page, { role: 'button', name: 'Delete', limit: 3 }, ctx);
    const lines = result.text.split('\n');
    expect(lines[0]).toBe(
      '500 matches for role "button", name "Delete"; showing 3: raise limit, or narrow with role, name or frame:',
    );
    expect(lines.slice(1).map((line) => /link "(Row \d+)"/.exec(line)?.[1])).toEqual(['Row 1', 'Row 2', 'Row 3']);
    expect(result.data).toEqual({ total: 500, shown: 3, unreadable: [] });
  });

  it('gives an element the same ref as the snapshot did, whichever way it is found', async () => {
    const { page } = await suite.browser.open(suite.server.url('table.html'));
    const outline = (await snapshot(page, {}, ctx)).text.split('\n');
    const byText = (await find(page, { text: 'user42@' }, ctx)).text.split('\n')[1]!;
    const byRole = (await find(page, { role: 'link', name: '"Row 42"' }, ctx)).text.split('\n')[1]!;
    expect(byText).toMatch(/^- row: link "Row 42" \[ref=e\d+\]/);
    expect(byRole).toBe(byText);
    expect(outline).toContain(`  ${byText}`);
  });

  it('searches every frame, cross-origin included, and says which frame each match is in', async () => {
    const { page } = await suite.browser.open(suite.server.url('frames.html'));
    const result = await find(page, { text: 'child button' }, ctx);
    expect(withoutRefs(result.text).split('\n')).toEqual([
      '2 matches for text "child button":',
      expect.stringMatching(/^in frame 1 \(http:\/\/127\.0\.0\.1:\d+\/frame-child\.html\):$/),
      '- button "Child button" [ref=f1]',
      expect.stringMatching(/^in frame 2 \(http:\/\/localhost:\d+\/frame-child\.html\):$/),
      '- button "Child button" [ref=f2]',
    ]);
    const crossRef = /\[ref=(f2e\d+)\]/.exec(result.text)![1]!;
    const handle = await resolveRef(page, crossRef);
    expect((await callOnElement(page, handle, 'elementText', [100])).text).toBe('Child button');
  });

  it('finds by selector, by text inside open shadow roots, and text that spans elements', async () => {
    const form = (await suite.browser.open(suite.server.url('form.html'))).page;
    expect(withoutRefs((await find(form, { selector: '#email' }, ctx)).text)).toBe(
      '1 match for selector "#email":\n- textbox "Email *" [required] [ref=]',
    );
    expect((await find(form, { text: 'marked * are' }, ctx)).text).toBe(
      '1 match for text "marked * are":\n- paragraph: All fields marked * are required.',
    );
    const shadow = (await suite.browser.open(suite.server.url('shadow.html'))).page;
    expect(withoutRefs((await find(shadow, { text: 'follow' }, ctx)).text)).toBe(
      '1 match for text "follow":\n- button "Follow" [ref=]',
    );
    expect(withoutRefs((await find(shadow, { text: 'amazing grace' }, ctx)).text)).toBe(
      '1 match for text "amazing grace":\n- textbox "Nickname" [ref=]: Amazing Grace',
    );
  });

  it('skips hidden text and says so when nothing matches', async () => {
    const { page } = await suite.browser.open(suite.server.url('form.html'));
    const result = await find(page, { text: 'Hidden hint text' }, ctx);
    expect(result.text).toBe(
      'No element matches text "Hidden hint text" in 2 frames. Try a shorter text, or snapshot to see the page.',
    );
    expect((await find(page, { text: 'hunter2' }, ctx)).text).toMatch(/^No element matches/);
  });

  it('refuses a lookup with nothing to look for', async () => {
    const { page } = await suite.browser.open(suite.server.url('form.html'));
    await expect(find(page, { text: '  ' }, ctx)).rejects.toSatisfy(
      (error) => error instanceof ToolError && error.code === 'BAD_ARGS',
    );
  });
});

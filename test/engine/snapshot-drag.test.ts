// Refs for what a drag starts from or ends on, on real Chromium: role-less drag sources (HTML5 draggable, a grab or
// move cursor) and named drop targets (a region, a landmark, images), and drags written from the outline alone.
import { describe, expect, it } from 'vitest';
import { drag } from '../../shared/engine/ops/drag.js';
import { snapshot } from '../../shared/engine/ops/snapshot.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import { callOnElement, resolveRef } from '../../shared/engine/targets.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { pageEval } from '../support/page-probes.js';

const suite = useEngineSuite();

/** The outline's lines, as a model reads them. */
async function outline(page: PageContext): Promise<string[]> {
  return (await snapshot(page, {}, ctx)).text.split('\n').filter((line) => /^\s*- /.test(line));
}

/** The ref on the line that names `label`, found as a model finds it. */
function refNaming(lines: string[], label: string): string {
  const ref = /\[ref=(e\d+)\]/.exec(lines.find((line) => line.includes(label)) ?? '')?.[1];
  if (!ref) throw new Error(`no ref names "${label}" in:\n${lines.join('\n')}`);
  return ref;
}

/** The id of the element behind a ref. */
async function idOf(page: PageContext, ref: string): Promise<string> {
  const html = (await callOnElement(page, await resolveRef(page, ref), 'elementHtml', [60])).text;
  return /^<\w+ id="([^"]+)"/.exec(html)?.[1] ?? html;
}

describe('snapshot refs for drags', () => {
  it('gives role-less drag sources and named drop targets a ref on a line that names them, and nothing unnamed', async () => {
    const { page } = await suite.browser.open(suite.server.url('drag-refs.html'));
    const lines = await outline(page);
    expect(lines.map((line) => line.replace(/ \[ref=e\d+\]/, ' [ref]'))).toEqual([
      '- draggable [ref]: Card: Fix login',
      '- list:',
      '  - listitem [draggable] [ref]: Backlog item',
      '- region "Done column" [ref]:',
      '  - text: Done column',
      '- navigation "Boards" [ref]:',
      '  - link "All boards" [ref]',
      '- img "Trash" [ref]',
      '- draggable "Volume knob" [ref]',
      '- img "Loud end" [ref]',
      // The move cursor's element, not each child that inherits the cursor.
      '- draggable [ref]: Move the panel by its bar',
      '- text: An unnamed section',
      '- form "New card":',
      '  - textbox "Title" [ref]',
      '- paragraph: dropped: none',
      '- paragraph: knob: 0',
    ]);
    const ids = await Promise.all(
      ['Card: Fix login', '"Done column"', '"Trash"', '"Volume knob"', '"Loud end"', 'Move the panel'].map(
        async (label) => idOf(page, refNaming(lines, label)),
      ),
    );
    expect(ids).toEqual(['card', 'done', 'trash', 'knob', 'loud', 'bar']);
  });

  it('drags by those refs: a card onto a named region and a named image, a grab-cursor knob onto a role=img', async () => {
    const { page } = await suite.browser.open(suite.server.url('drag-refs.html'));
    const lines = await outline(page);
    const text = (id: string) => pageEval<string>(page, `document.getElementById('${id}').textContent`);
    const card = refNaming(lines, 'Card: Fix login');

    const dropped = await drag(page, { ref: card, to: { ref: refNaming(lines, '"Done column"') } }, ctx);
    expect(dropped.text).toContain('(drag and drop)');
    expect(await text('dropped')).toBe('dropped: card on done');
    await drag(page, { ref: card, to: { ref: refNaming(lines, '"Trash"') } }, ctx);
    expect(await text('dropped')).toBe('dropped: card on trash');

    // Grabbed at its centre, let go on the centre of the track's far end: the knob stops at the end (360 px).
    const moved = await drag(
      page,
      { ref: refNaming(lines, '"Volume knob"'), to: { ref: refNaming(lines, '"Loud end"') } },
      ctx,
    );
    expect(moved.text).toContain('(pointer drag)');
    expect(await text('knob-out')).toBe('knob: 360');
  });
});

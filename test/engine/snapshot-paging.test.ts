// snapshot on a page too big to walk whole: the walk stops past the page shown, says more lines follow without a
// count, and every page it gives is exactly that part of the whole outline.
import { describe, expect, it } from 'vitest';
import { snapshot } from '../../shared/engine/ops/snapshot.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';

const suite = useEngineSuite();

/** Outline lines only: drops the header and notes around them. */
const outlineOf = (text: string) => text.split('\n').filter((line) => /^\s*- /.test(line));

describe('snapshot of a 20,000-element page', () => {
  it('stops after the lines asked for, and each page matches the whole outline line for line', async () => {
    const { page } = await suite.browser.open(suite.server.url('bench-sized.html?n=20000'));
    const whole = await snapshot(page, { limit: 1_000_000 }, ctx);
    const all = outlineOf(whole.text);
    expect(whole.data).toMatchObject({ totalLines: all.length, more: false });
    expect(all.length).toBeGreaterThan(5_000);

    const first = await snapshot(page, {}, ctx);
    expect(first.data).toMatchObject({ more: true, offset: 0 });
    expect(first.data?.['totalLines']).toBeUndefined();
    expect(first.text).toContain('more follow (not counted');
    const shown = outlineOf(first.text);
    expect(shown).toEqual(all.slice(0, shown.length));
    expect(first.text).toContain(`… more lines: snapshot offset=${shown.length} for the next part`);

    for (const offset of [shown.length, 4_321, all.length - 30]) {
      const part = await snapshot(page, { offset, limit: 50 }, ctx);
      expect(outlineOf(part.text)).toEqual(all.slice(offset, offset + 50));
    }
  });

  it('shows a change made after the last snapshot', async () => {
    const { page } = await suite.browser.open(suite.server.url('bench-sized.html?n=20000'));
    await snapshot(page, {}, ctx);
    await page.cdp.send('Runtime.evaluate', {
      expression: `document.querySelector('h1').textContent = 'Renamed page'; document.getElementById('name').value = 'Ada'`,
    });
    const next = outlineOf((await snapshot(page, {}, ctx)).text);
    expect(next).toContain('- heading "Renamed page" [level=1]');
    expect(next.some((line) => /textbox "Name".*: Ada$/.test(line))).toBe(true);
  });
});

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
  }, 120_000);

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

describe('snapshot of a 37,000-element page of mixed entries', () => {
  it('continues the first page exactly where it stopped: nothing lost, repeated or hidden, refs kept', async () => {
    const { page } = await suite.browser.open(suite.server.url('snapshot-long.html?n=1500'));
    const first = await snapshot(page, {}, ctx);
    // Walked after the first page and before the second, so both must show the refs this walk keeps.
    const all = outlineOf((await snapshot(page, { limit: 1_000_000 }, ctx)).text);
    const shown = outlineOf(first.text);
    // Long lines: the character budget ends the page before its 400 lines, so the continuation is not offset+limit.
    expect(shown.length).toBeGreaterThan(100);
    expect(shown.length).toBeLessThan(400);
    expect(first.data).toMatchObject({ more: true, offset: 0, shown: shown.length });
    expect(shown).toEqual(all.slice(0, shown.length));
    const next = Number(/… more lines: snapshot offset=(\d+) for the next part/.exec(first.text)?.[1]);
    expect(next).toBe(shown.length);

    const second = await snapshot(page, { offset: next }, ctx);
    const following = outlineOf(second.text);
    expect(second.text).toContain(`Lines ${next + 1}–${next + following.length}; more follow`);
    expect(following).toEqual(all.slice(next, next + following.length));
    // Every entry once, in order, across the cut (an entry's lines may straddle it).
    const entries = [...shown, ...following].flatMap((line) => /article "Entry (\d+)"/.exec(line)?.[1] ?? []);
    expect(entries.map(Number)).toEqual(Array.from({ length: entries.length }, (_, index) => index + 1));
    expect(entries.length).toBeGreaterThan(10);
    expect((await snapshot(page, {}, ctx)).text).toBe(first.text);
    // Pages ending at every line of the first entries, and across the first page's cut: a walk that stops inside an
    // element (a paragraph's text half read, a container before its last child) shows a line the whole has not.
    const cuts: [number, number][] = [
      ...Array.from({ length: 40 }, (_, index): [number, number] => [0, index + 1]),
      ...Array.from({ length: 12 }, (_, index): [number, number] => [next - 6 + index, 5]),
    ];
    for (const [offset, limit] of cuts) {
      expect(outlineOf((await snapshot(page, { offset, limit }, ctx)).text)).toEqual(all.slice(offset, offset + limit));
    }
    for (const text of [first.text, second.text, all.join('\n')]) {
      expect(text).not.toMatch(/pw-secret|Hidden note|Unseen note/);
    }
    // A whole walk of 37,000 elements takes seconds on a busy 2-core box.
  }, 120_000);
});

// click and hover on real Chromium, in background tabs: trusted events, frames of every kind, and honest refusals.
import { describe, expect, it } from 'vitest';
import { click, hover } from '../../shared/engine/ops/pointer.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import type { ClickArgs } from '../../shared/tools/args.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { inputTimeline, movesAwaitedAlone, type InputStep } from '../support/input-timeline.js';
import { frameWith, pageEval, textOf } from '../support/page-probes.js';

const suite = useEngineSuite();

interface LoggedEvent {
  type: string;
  id: string;
  detail: number;
  button: number;
  ctrl: boolean;
  shift: boolean;
  trusted: boolean;
}

const events = (page: PageContext) => pageEval<LoggedEvent[]>(page, 'events.splice(0)');

describe('click', () => {
  it('clicks a button with trusted events and answers one line', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-pointer.html'));
    const result = await click(page, { selector: '#save' }, ctx);
    expect(result.text).toBe('clicked button "Save"');
    expect(await pageEval(page, 'document.getElementById("save").textContent')).toBe('Saved');
    expect((await events(page)).filter((event) => event.type === 'click')).toEqual([
      expect.objectContaining({ id: 'save', detail: 1, button: 0, trusted: true }),
    ]);
    expect((await click(page, { selector: '#save', element: 'the save button' }, ctx)).text).toBe(
      'clicked the save button',
    );
  });

  it('does not wait for a frame: every mouse move goes out with the event that flushes it', async () => {
    const steps: InputStep[] = [];
    const { page } = await suite.browser.open(suite.server.url('act-pointer.html'), (cdp) => inputTimeline(cdp, steps));
    for (let i = 0; i < 10; i++) await click(page, { selector: '#save' }, ctx);
    // A mouse move awaited on its own waits for the next frame: ~1 s in a throttled background tab. Its answer coming
    // before the next event was sent is that wait's signature, whatever the machine's speed.
    expect(steps.filter((step) => step.at === 'sent' && step.type === 'mouseMoved')).toHaveLength(10);
    expect(movesAwaitedAlone(steps)).toBe(0);
    expect((await events(page)).filter((event) => event.type === 'click')).toHaveLength(10);
  });

  it('double-clicks like a person: click, click, dblclick', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-pointer.html'));
    const result = await click(page, { selector: '#dbl', count: 2 }, ctx);
    expect(result.text).toBe('double-clicked button "Double me"');
    const seen = (await events(page))
      .filter((event) => event.type !== 'mouseenter')
      .map((event) => `${event.type}:${event.detail}`);
    expect(seen).toEqual(['click:1', 'click:2', 'dblclick:2']);
  });

  it('sends the button and the modifiers', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-pointer.html'));
    expect((await click(page, { selector: '#save', button: 'right' }, ctx)).text).toBe('right-clicked button "Save"');
    expect((await events(page)).find((event) => event.type === 'contextmenu')).toMatchObject({
      button: 2,
      trusted: true,
    });
    const args: ClickArgs = { selector: '#save', modifiers: ['Control', 'Shift'] };
    expect((await click(page, args, ctx)).text).toBe('clicked button "Save" with Control+Shift');
    expect((await events(page)).find((event) => event.type === 'click')).toMatchObject({ ctrl: true, shift: true });
  });

  it('scrolls a far element into view, and re-centres one a sticky header covers', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-pointer.html'));
    await click(page, { selector: '#far' }, ctx);
    expect(await pageEval<number>(page, 'scrollY')).toBeGreaterThan(1000);
    // Put #far just under the sticky header: in view, but covered where it is.
    await pageEval(page, 'scrollTo(0, document.getElementById("far").offsetTop - 20)');
    await events(page);
    await click(page, { selector: '#far' }, ctx);
    expect((await events(page)).filter((event) => event.type === 'click').map((event) => event.id)).toEqual(['far']);
  });

  it('clicks a viewport point as given and says what is there', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-pointer.html'));
    const box = await pageEval<{ x: number; y: number }>(
      page,
      '(() => { const r = document.getElementById("save").getBoundingClientRect(); return { x: Math.round(r.x + 5), y: Math.round(r.y + 5) }; })()',
    );
    const result = await click(page, { x: box.x, y: box.y }, ctx);
    expect(result.text).toBe(`clicked button "Save" at ${box.x},${box.y}`);
    expect(await pageEval(page, 'document.getElementById("save").textContent')).toBe('Saved');
  });

  it('refuses a covered element, naming what covers it, and sends nothing', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-pointer.html'));
    const error = await failure(click(page, { selector: '#buy' }, ctx));
    expect(error.code).toBe('OBSCURED');
    expect(error.message).toBe('div#cookie-banner "We use cookies" covers button "Buy".');
    const through = await failure(click(page, { selector: '#no-pointer' }, ctx));
    expect(through.code).toBe('OBSCURED');
    expect(through.message).toContain('lets clicks through');
    expect((await events(page)).filter((event) => event.type === 'click')).toEqual([]);
  });

  it('refuses hidden, empty and disabled elements', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-pointer.html'));
    for (const selector of ['#gone', '#ghost', '#empty']) {
      expect((await failure(click(page, { selector }, ctx))).code, selector).toBe('NOT_VISIBLE');
    }
    expect((await failure(click(page, { selector: '#disabled' }, ctx))).code).toBe('DISABLED');
  });
});

describe('click in frames', () => {
  it('clicks into a same-origin and a cross-origin iframe', async () => {
    const { page } = await suite.browser.open(suite.server.url('frames.html'));
    const children = (await page.frames.list()).filter((frame) => frame.parentFrameId !== undefined);
    expect(children.map((frame) => frame.sessionId === undefined)).toEqual([true, false]);
    for (const frame of children) {
      const result = await click(page, { selector: '#child', frame: frame.ordinal }, ctx);
      expect(result.text).toBe('clicked button "Child button"');
      expect(await textOf(page, frame, '#child')).toBe(`Clicked in ${new URL(frame.url).host}`);
    }
  });

  it('aims through nested frames, borders and paddings, scrolled out of view, in and out of process', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-frames.html'));
    for (const piece of ['nested-same', 'nested-cross', 'direct']) {
      await pageEval(page, 'scrollTo(0, 0)');
      const frame = await frameWith(page, piece);
      await click(page, { selector: '#child', frame: piece }, ctx);
      expect(await textOf(page, frame, '#child'), piece).toBe(`Clicked in ${new URL(frame.url).host}`);
    }
    expect((await frameWith(page, 'nested-cross')).sessionId).toBeDefined();
    expect((await frameWith(page, 'nested-same')).sessionId).toBeUndefined();
  });

  it('refuses a frame element that a dialog of the top page covers', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-frames.html'));
    await pageEval(
      page,
      `(() => {
      const cover = document.createElement('div');
      cover.id = 'modal';
      cover.textContent = 'Please wait';
      cover.style.cssText = 'position:fixed;inset:0;background:rgba(0,0,0,.3);z-index:9';
      document.body.append(cover);
    })()`,
    );
    const error = await failure(click(page, { selector: '#child', frame: 'direct' }, ctx));
    expect(error.code).toBe('OBSCURED');
    expect(error.message).toContain('div#modal "Please wait" covers button "Child button"');
    expect(await textOf(page, await frameWith(page, 'direct'), '#child')).toBe('Child button');
  });
});

describe('hover', () => {
  it('moves the mouse over the element at once', async () => {
    const steps: InputStep[] = [];
    const { page } = await suite.browser.open(suite.server.url('act-pointer.html'), (cdp) => inputTimeline(cdp, steps));
    const result = await hover(page, { selector: '#menu' }, ctx);
    expect(steps.some((step) => step.type === 'mouseMoved')).toBe(true);
    expect(movesAwaitedAlone(steps)).toBe(0);
    expect(result.text).toBe('hovered button "Menu"');
    expect(await pageEval(page, 'document.getElementById("menu").textContent')).toBe('Menu open');
    expect((await events(page)).map((event) => event.type)).toEqual(['mouseenter']);
  });

  it('refuses a covered element like click does', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-pointer.html'));
    expect((await failure(hover(page, { selector: '#buy' }, ctx))).code).toBe('OBSCURED');
  });
});

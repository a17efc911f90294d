// Acting in a background tab that stays in the background, on headed Chromium where such a tab drops CDP input
// unless focus emulation is on: click, hover, type, press, fill_form, select_option, scroll, and inside frames.
import { describe, expect, it } from 'vitest';
import { fillForm, selectOption } from '../../shared/engine/ops/forms.js';
import { press, type } from '../../shared/engine/ops/keyboard.js';
import { click, hover } from '../../shared/engine/ops/pointer.js';
import { scroll } from '../../shared/engine/ops/scroll.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import { headedUnavailable, recordingCdp, startHeadedBrowser } from '../support/headed-browser.js';
import { inputTimeline, movesAwaitedAlone, type InputStep } from '../support/input-timeline.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { frameWith, onElement, pageEval } from '../support/page-probes.js';

const unavailable = headedUnavailable();
const suite = useEngineSuite({ startBrowser: startHeadedBrowser, skip: unavailable !== undefined });

/** Opens a background tab whose every CDP command is recorded. */
async function openWatched(path: string): Promise<{ page: PageContext; sent: string[]; steps: InputStep[] }> {
  const sent: string[] = [];
  const steps: InputStep[] = [];
  const { page } = await suite.browser.open(suite.server.url(path), (cdp) =>
    inputTimeline(recordingCdp(cdp, sent), steps),
  );
  return { page, sent, steps };
}

/** The tab was never brought forward, and the person's tab in front still is. */
async function expectStillInBackground(sent: string[]): Promise<void> {
  expect(sent.filter((method) => /activateTarget|bringToFront/.test(method))).toEqual([]);
  expect(sent.filter((method) => method === 'Emulation.setFocusEmulationEnabled')).toHaveLength(1);
  expect(await pageEval(suite.browser.foreground, 'document.visibilityState')).toBe('visible');
}

// One retry: on a starved machine a headed background tab now and then drops an input event even with focus emulation
// on, which the engine reports (INPUT_NOT_LANDED) rather than hides; these tests are about the emulation, not the load.
describe.skipIf(unavailable !== undefined)(
  `background tab on headed Chromium${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  { retry: 1 },
  () => {
    it('drops raw key and mouse input without focus emulation (what the engine must overcome)', async () => {
      const { page } = await suite.browser.open(suite.server.url('act-keyboard.html'));
      expect(await pageEval(page, 'document.visibilityState')).toBe('hidden');
      await pageEval(page, 'document.getElementById("second").focus()');
      await page.cdp.send('Input.dispatchKeyEvent', {
        type: 'keyDown',
        key: 'x',
        code: 'KeyX',
        windowsVirtualKeyCode: 88,
        text: 'x',
      });
      await page.cdp.send('Input.dispatchKeyEvent', {
        type: 'keyUp',
        key: 'x',
        code: 'KeyX',
        windowsVirtualKeyCode: 88,
      });
      expect(await pageEval(page, 'keys.length')).toBe(0);
      const centre = await pageEval<{ x: number; y: number }>(
        page,
        `(() => {
      window.clicked = 0;
      const button = document.getElementById('plain');
      button.addEventListener('click', () => clicked++);
      const r = button.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    })()`,
      );
      for (const type of ['mousePressed', 'mouseReleased']) {
        await page.cdp.send('Input.dispatchMouseEvent', { type, ...centre, button: 'left', clickCount: 1 });
      }
      expect(await pageEval(page, 'clicked')).toBe(0);
    });

    it('clicks and hovers, quickly, in a tab that stays in the background', async () => {
      const { page, sent, steps } = await openWatched('act-pointer.html');
      expect((await click(page, { selector: '#save' }, ctx)).text).toBe('clicked button "Save"');
      expect(await pageEval(page, 'document.getElementById("save").textContent')).toBe('Saved');
      await click(page, { selector: '#dbl', count: 2 }, ctx);
      // No mouse move waited for the ~1 s frame interval of a throttled background tab: each went out with the event
      // that flushes it.
      expect(movesAwaitedAlone(steps)).toBe(0);
      expect(await pageEval(page, 'events.filter((e) => e.type === "dblclick" && e.trusted).length')).toBe(1);
      await hover(page, { selector: '#menu' }, ctx);
      expect(await pageEval(page, 'document.getElementById("menu").textContent')).toBe('Menu open');
      expect(movesAwaitedAlone(steps)).toBe(0);
      await expectStillInBackground(sent);
    });

    it('types, presses and submits in a tab that stays in the background', async () => {
      const { page, sent } = await openWatched('act-keyboard.html');
      await type(page, { selector: '#name', text: 'typed', clear: true }, ctx);
      expect(await pageEval(page, 'document.getElementById("name").value')).toBe('typed');
      await press(page, { selector: '#second', keys: 'Shift+Tab' }, ctx);
      expect(await pageEval(page, 'document.activeElement.id')).toBe('name');
      await press(page, { keys: 'Control+A' }, ctx);
      await press(page, { keys: 'Backspace' }, ctx);
      expect(await pageEval(page, 'document.getElementById("name").value')).toBe('');
      await type(page, { selector: '#notes', text: 'a\n  b', mode: 'verbatim' }, ctx);
      expect(await pageEval(page, 'document.getElementById("notes").value')).toBe('a\n  b');
      await type(page, { selector: '#second', text: 'go', submit: true }, ctx);
      expect(await pageEval(page, 'window.submitted')).toBe(1);
      await expectStillInBackground(sent);
    });

    it('fills a form, selects and scrolls in a tab that stays in the background', async () => {
      const { page, sent } = await openWatched('act-forms.html');
      const fields = [
        { selector: '#first', value: 'Ada' },
        { selector: '#agree', value: true },
        { selector: '#size-m', value: true },
        { selector: '#styled', value: true },
        { selector: '#rich', value: 'rich text' },
      ];
      expect((await fillForm(page, { fields }, ctx)).text).toBe('filled 5 fields');
      expect(
        await pageEval(page, `['agree', 'size-m', 'styled'].map((id) => document.getElementById(id).checked)`),
      ).toEqual([true, true, true]);
      expect(await pageEval(page, 'document.getElementById("rich").innerText')).toBe('rich text');
      await selectOption(page, { selector: '#color', values: 'Green' }, ctx);
      expect(await pageEval(page, 'document.getElementById("color").value')).toBe('g');
      await pageEval(page, 'document.body.style.height = "5000px"');
      expect((await scroll(page, { dy: 50 }, ctx)).text).toMatch(/^scrolled page to 0,50 /);
      await expectStillInBackground(sent);
    });

    it('clicks and types inside same-origin, cross-origin and nested cross-origin frames of a background tab', async () => {
      const { page, sent } = await openWatched('act-frames.html');
      for (const piece of ['nested-same', 'nested-cross', 'direct']) {
        const frame = await frameWith(page, piece);
        await click(page, { selector: '#child', frame: piece }, ctx);
        expect(await onElement(page, frame, '#child', 'function () { return this.textContent; }'), piece).toBe(
          `Clicked in ${new URL(frame.url).host}`,
        );
        await type(page, { selector: '#child-input', frame: piece, text: piece }, ctx);
        expect(await onElement(page, frame, '#child-input', 'function () { return this.value; }'), piece).toBe(piece);
      }
      await expectStillInBackground(sent);
    });
  },
);

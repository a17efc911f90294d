// screenshot with secrets on the page: typed passwords (a shown one too) and card numbers are painted over in every
// frame while the capture is taken, and the page is left exactly as it was; an ordinary field shows its text.
import { describe, expect, it } from 'vitest';
import { type } from '../../shared/engine/ops/keyboard.js';
import { screenshot } from '../../shared/engine/ops/screenshot.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import { readPng, type Png } from '../support/png.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { pageEval } from '../support/page-probes.js';

const suite = useEngineSuite();
const MASK = [128, 128, 128];

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The distinct colours inside a box of the image, its 2 px border and 2 px more of anti-aliasing left out. */
function coloursIn(png: Png, box: Box): string[] {
  const colours = new Set<string>();
  for (let y = Math.ceil(box.y) + 4; y < box.y + box.height - 4; y++) {
    for (let x = Math.ceil(box.x) + 4; x < box.x + box.width - 4; x++) colours.add(png.pixel(x, y).join(','));
  }
  return [...colours];
}

const whole = (png: Png): Box => ({ x: 0, y: 0, width: png.width, height: png.height });
const shot = async (page: PageContext, args: Record<string, unknown>) =>
  readPng((await screenshot(page, { format: 'png', ...args }, ctx)).image!.data);

async function typedPage(): Promise<PageContext> {
  const { page } = await suite.browser.open(suite.server.url('shot-secrets.html'));
  const fields = {
    pw: 'hunter2-Correct',
    shown: 'hunter2-Shown',
    card: '4111111111111111',
    styled: 'red-Secret-9',
    plain: 'Springfield',
  };
  for (const [id, text] of Object.entries(fields)) await type(page, { selector: `#${id}`, text }, ctx);
  return page;
}

describe('screenshot masks secret fields', () => {
  it('paints a typed password, a shown one, a card number and a child frame password over, but not a plain field', async () => {
    const page = await typedPage();
    for (const id of ['pw', 'shown', 'card', 'styled']) {
      const png = await shot(page, { selector: `#${id}` });
      expect(coloursIn(png, whole(png)), id).toEqual([MASK.join(',')]);
    }
    const child = await shot(page, { selector: '#child-pw', frame: 1 });
    expect(coloursIn(child, whole(child))).toEqual([MASK.join(',')]);
    // The control: the same kind of box, with its text showing.
    const plain = await shot(page, { selector: '#plain' });
    expect(coloursIn(plain, whole(plain)).length).toBeGreaterThan(1);
  });

  it('masks them in a viewport capture too, and leaves the page as it was', async () => {
    const page = await typedPage();
    const boxes = await pageEval<Record<string, Box>>(
      page,
      `Object.fromEntries(['pw', 'card', 'plain'].map((id) => {
      const { x, y, width, height } = document.getElementById(id).getBoundingClientRect();
      return [id, { x, y, width, height }];
    }))`,
    );
    const png = await shot(page, {});
    expect(coloursIn(png, boxes['pw']!)).toEqual([MASK.join(',')]);
    expect(coloursIn(png, boxes['card']!)).toEqual([MASK.join(',')]);
    expect(coloursIn(png, boxes['plain']!).length).toBeGreaterThan(1);

    const after = await pageEval<Record<string, string>>(
      page,
      `({
      pw: document.getElementById('pw').style.cssText,
      styled: document.getElementById('styled').style.cssText,
      fill: getComputedStyle(document.getElementById('card')).webkitTextFillColor,
      value: document.getElementById('card').value,
    })`,
    );
    expect(after).toEqual({
      pw: '',
      styled: 'color: rgb(255, 0, 0);',
      fill: 'rgb(0, 0, 0)',
      value: '4111111111111111',
    });
    // A capture of our own, with no masking: the dots are back.
    const raw = await page.cdp.send<{ data: string }>('Page.captureScreenshot', { format: 'png' });
    expect(coloursIn(readPng(raw.data), boxes['pw']!).length).toBeGreaterThan(1);
  });
});

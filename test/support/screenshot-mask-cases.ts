// The screenshot-mask cases both backends run (engine and extension screenshot-mask tests): on shot-secrets.html with
// its fields typed into, typed passwords (a shown one too) and card numbers are painted over in every frame while the
// capture is taken, and the page is left exactly as it was; an ordinary field shows its text.
import { expect } from 'vitest';
import type { OperationResult } from '../../shared/protocol/operations.js';
import { readPng, type Png } from './png.js';

const MASK = [128, 128, 128].join(',');

/** A tab on shot-secrets.html, as each backend drives it. */
export interface ShotTab {
  /** The screenshot tool, as a PNG. */
  screenshot(args: Record<string, unknown>): Promise<OperationResult>;
  /** The type tool into the field `selector` picks. */
  type(selector: string, text: string): Promise<void>;
  /** `expression` run as the page's own code. */
  asPage<T>(expression: string): Promise<T>;
  /** A capture of the test's own, with no masking. */
  rawCapture(): Promise<Png>;
}

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
const shot = async (tab: ShotTab, args: Record<string, unknown>) =>
  readPng((await tab.screenshot({ format: 'png', ...args })).image!.data);

async function typed(open: () => Promise<ShotTab>): Promise<ShotTab> {
  const tab = await open();
  const fields = {
    pw: 'hunter2-Correct',
    shown: 'hunter2-Shown',
    card: '4111111111111111',
    styled: 'red-Secret-9',
    plain: 'Springfield',
  };
  for (const [id, text] of Object.entries(fields)) await tab.type(`#${id}`, text);
  return tab;
}

export const maskCases = {
  /** Each secret field's own capture is all mask; a plain field's shows its text. */
  async elements(open: () => Promise<ShotTab>): Promise<void> {
    const tab = await typed(open);
    for (const id of ['pw', 'shown', 'card', 'styled']) {
      const png = await shot(tab, { selector: `#${id}` });
      expect(coloursIn(png, whole(png)), id).toEqual([MASK]);
    }
    const child = await shot(tab, { selector: '#child-pw', frame: 1 });
    expect(coloursIn(child, whole(child))).toEqual([MASK]);
    // The control: the same kind of box, with its text showing.
    const plain = await shot(tab, { selector: '#plain' });
    expect(coloursIn(plain, whole(plain)).length).toBeGreaterThan(1);
  },

  /** A viewport capture masks them too, and the page's fields are as they were after it. */
  async viewport(open: () => Promise<ShotTab>): Promise<void> {
    const tab = await typed(open);
    const boxes = await tab.asPage<Record<string, Box>>(
      `Object.fromEntries(['pw', 'card', 'plain'].map((id) => {
      const { x, y, width, height } = document.getElementById(id).getBoundingClientRect();
      return [id, { x, y, width, height }];
    }))`,
    );
    const png = await shot(tab, {});
    expect(coloursIn(png, boxes['pw']!)).toEqual([MASK]);
    expect(coloursIn(png, boxes['card']!)).toEqual([MASK]);
    expect(coloursIn(png, boxes['plain']!).length).toBeGreaterThan(1);

    const after = await tab.asPage<Record<string, string>>(
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
    // With no masking, the dots are back.
    expect(coloursIn(await tab.rawCapture(), boxes['pw']!).length).toBeGreaterThan(1);
  },
};

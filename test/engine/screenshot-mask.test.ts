// screenshot with secrets on the page: typed passwords (a shown one too) and card numbers are painted over in every
// frame while the capture is taken, and the page is left exactly as it was; an ordinary field shows its text.
import { describe, it } from 'vitest';
import { type } from '../../shared/engine/ops/keyboard.js';
import { screenshot } from '../../shared/engine/ops/screenshot.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { pageEval } from '../support/page-probes.js';
import { readPng } from '../support/png.js';
import { maskCases, type ShotTab } from '../support/screenshot-mask-cases.js';

const suite = useEngineSuite();

async function open(): Promise<ShotTab> {
  const { page } = await suite.browser.open(suite.server.url('shot-secrets.html'));
  return {
    screenshot: (args) => screenshot(page, args, ctx),
    type: async (selector, text) => void (await type(page, { selector, text }, ctx)),
    asPage: (expression) => pageEval(page, expression),
    rawCapture: async () =>
      readPng((await page.cdp.send<{ data: string }>('Page.captureScreenshot', { format: 'png' })).data),
  };
}

describe('screenshot masks secret fields', () => {
  it('paints a typed password, a shown one, a card number and a child frame password over, but not a plain field', () =>
    maskCases.elements(open));

  it('masks them in a viewport capture too, and leaves the page as it was', () => maskCases.viewport(open));
});

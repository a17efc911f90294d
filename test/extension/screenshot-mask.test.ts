// screenshot with secrets on the page through the real extension (as the engine's screenshot-mask test does in the
// fallback): typed passwords and card numbers are painted over in every frame while captured, the page left as it was.
import { describe, it } from 'vitest';
import { readPng } from '../support/png.js';
import { maskCases, type ShotTab } from '../support/screenshot-mask-cases.js';
import { useLinkedExtension } from './support/use-linked-extension.js';
import { probePage } from './support/page-probe.js';

const extension = useLinkedExtension();
let opened = 0;

/** A tab of its own in front, where Chrome draws the frames a capture copies; its own address, for the probe. */
async function open(): Promise<ShotTab> {
  const linked = extension();
  const url = linked.fixtures.url(`shot-secrets.html?tab=${++opened}`);
  const tab = String((await linked.run('tab_new', { url, focus: true })).data?.['tab']);
  const page = await probePage(linked.browser, url);
  return {
    screenshot: (args) => linked.run('screenshot', { tab, ...args }),
    type: async (selector, text) => void (await linked.run('type', { tab, selector, text })),
    asPage: (expression) => page.evaluate(expression),
    rawCapture: async () => readPng(await page.capture()),
  };
}

describe('screenshot masks secret fields, through the extension', () => {
  it('paints a typed password, a shown one, a card number and a child frame password over, but not a plain field', () =>
    maskCases.elements(open));

  it('masks them in a viewport capture too, and leaves the page as it was', () => maskCases.viewport(open));
});

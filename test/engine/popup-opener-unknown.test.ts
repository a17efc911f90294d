// The script trail asked of a window by a host that names neither the opening frame nor its gesture (the Electron
// fallback's window-open handler), on real Chromium: any document of the tab the script reached makes the window the
// script's, and so does it after the eval's activation, which bounds a known gesture only; a new document does not.
import { expect, it } from 'vitest';
import type { Cdp, CdpEvent } from '../../shared/engine/cdp.js';
import { evaluate } from '../../shared/engine/ops/eval.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import { openedByScript, type PopupOpening } from '../../shared/engine/popup-events.js';
import { EVAL_ACTIVATION_MS } from '../../shared/engine/scripted-documents.js';
import { loadUrl } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';

const suite = useEngineSuite();

/** A fresh tab (a trail of its own) at the fixture `path`. */
const open = (path: string) => suite.browser.open(suite.server.url(path));

/** What the tab's trail answers a host that tells it `opening`, through the tab's stream as the hosts do. */
async function scripted(tabId: string, opening: Omit<PopupOpening, 'scripted'> = {}): Promise<boolean> {
  const tab = (await suite.browser.host.cdp(tabId)) as Cdp & { tell(event: CdpEvent): void };
  return openedByScript((event) => tab.tell(event), opening);
}

const topFrame = async (page: PageContext) => (await page.frames.list()).find((frame) => frame.ordinal === 0)!;

it('takes a window of a tab whose document the script reached as the script’s', async () => {
  const { tabId, page } = await open('egress-late.html');
  await evaluate(page, { expression: '1' }, ctx);
  expect(await scripted(tabId)).toBe(true);
});

it('still does once the eval’s activation is over, where a known gesture is the person’s', async () => {
  const { tabId, page } = await open('egress-late.html');
  await evaluate(page, { expression: '1' }, ctx);
  const { frameId } = await topFrame(page);
  // The rule's own bound: a gesture after it is not the eval's.
  await new Promise((resolve) => setTimeout(resolve, EVAL_ACTIVATION_MS + 500));
  expect(await scripted(tabId, { frameId, hasUserGesture: true })).toBe(false);
  expect(await scripted(tabId, { frameId })).toBe(true);
  expect(await scripted(tabId)).toBe(true);
});

it('takes a frame the script reached for the tab: an eval in its cross-origin frame only', async () => {
  const { tabId, page } = await open('egress-frames.html');
  await evaluate(page, { expression: '1', frame: 1 }, ctx);
  expect(await scripted(tabId, { frameId: (await topFrame(page)).frameId })).toBe(false);
  expect(await scripted(tabId)).toBe(true);
});

it('lets a window go once the tab went on to a document the script never reached', async () => {
  const { tabId, page } = await open('egress-late.html');
  await evaluate(page, { expression: '1' }, ctx);
  await loadUrl(page, suite.server.url('egress-page.html'));
  expect(await scripted(tabId)).toBe(false);
});

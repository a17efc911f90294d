// The inline-handler pages the late-handler tests put in the page, and the cases both backends run with them: an image
// whose `onerror` attribute sends to the watched site once its load fails, a moment after the eval that set it returned.
import { expect } from 'vitest';
import type { LateTab } from './late-tab.js';

/**
 * An image that fails to load a moment from now (the fixture server's slow answer is no image), whose error handler (an
 * attribute) fetches `target` and then sets the page's `marker`.
 */
export function failingImage(target: string, marker: string): string {
  const send = `fetch('${target}', { mode: 'no-cors' }).catch(() => undefined).finally(() => (window.${marker} = true))`;
  return `<img src="/slow?ms=1500&for=${marker}" onerror="${send}">`;
}

/** An image never inserted in any document, kept by the page, whose error handler calls the page's own `pageSend`. */
export function detachedImage(target: string, marker: string): string {
  const handler = `pageSend('${target}').finally(() => (window.${marker} = true))`;
  return `window.kept = new Image(); kept.setAttribute('onerror', ${JSON.stringify(handler)});
    kept.src = '/slow?ms=1500&for=${marker}'; 0`;
}

/** Code that appends `html` to the page's body, now. */
export function appending(html: string): string {
  return `document.body.insertAdjacentHTML('beforeend', ${JSON.stringify(html)}); 0`;
}

/** What reached W, and what the next result names, once the handler the script left has set `marker`. */
async function afterHandler(tab: LateTab, marker: string) {
  await tab.until(marker);
  const reached = await tab.reached();
  return { reached, heldLater: tab.heldLater(await tab.run('1')) };
}

/** The cases both backends run, each a test's whole body on the backend's tab; the test files name them. */
export const handlerCases = {
  async insertedByEval(tab: LateTab): Promise<void> {
    await tab.run(appending(failingImage(`${tab.watched.origin}/inserted`, 'inserted')));
    expect(await afterHandler(tab, 'inserted')).toEqual({ reached: [], heldLater: ['GET W/inserted (Fetch)'] });
  },

  async insertedByTimer(tab: LateTab): Promise<void> {
    const later = JSON.stringify(appending(failingImage(`${tab.watched.origin}/timer`, 'timer')));
    await tab.run(`setTimeout(${later}, 1000); 0`);
    expect(await afterHandler(tab, 'timer')).toEqual({ reached: [], heldLater: ['GET W/timer (Fetch)'] });
  },

  async neverInserted(tab: LateTab): Promise<void> {
    await tab.run(detachedImage(`${tab.watched.origin}/detached`, 'detached'));
    expect(await afterHandler(tab, 'detached')).toEqual({ reached: [], heldLater: ['GET W/detached (Fetch)'] });
  },

  /** One the page inserts, after an eval, sends to another origin. */
  async pageOwn(tab: LateTab): Promise<void> {
    await tab.run('1');
    await tab.asPage(appending(failingImage(`${tab.watched.origin}/own`, 'own')));
    await tab.until('own');
    expect(tab.watched.requests).toEqual(['/own']);
  },
};

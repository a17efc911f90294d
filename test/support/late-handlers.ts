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
export async function afterHandler(tab: LateTab, marker: string) {
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

  /** One the script writes on an image the page later clones: the clone's code is the script's text. */
  async clonedByPage(tab: LateTab): Promise<void> {
    const send = `pageSend('${tab.watched.origin}/cloned').finally(() => (window.cloned = true))`;
    await tab.run(
      `document.body.insertAdjacentHTML('beforeend', ${JSON.stringify(`<img id="model" onerror="${send}">`)}); 0`,
    );
    await tab.asPage(`window.copy = document.getElementById('model').cloneNode(); copy.src = '/slow?ms=300'; 0`);
    expect(await afterHandler(tab, 'cloned')).toEqual({ reached: [], heldLater: ['GET W/cloned (Fetch)'] });
  },

  /** A listener the script adds, calling the page's send when the page fires its event later. */
  async listenerCallsPageSend(tab: LateTab): Promise<void> {
    const send = `pageSend('${tab.watched.origin}/listener').finally(() => (window.listened = true))`;
    await tab.run(`document.addEventListener('page-tick', () => ${send}); 0`);
    await tab.asPage(`setTimeout(() => document.dispatchEvent(new Event('page-tick')), 200); 0`);
    expect(await afterHandler(tab, 'listened')).toEqual({ reached: [], heldLater: ['GET W/listener (Fetch)'] });
  },

  /** A handler the script writes after replacing what a policy of the page's would call. */
  async afterBlinding(tab: LateTab): Promise<void> {
    await tab.run(`window.unblind = ((exec, setAttribute, apply, string) => () => {
      RegExp.prototype.exec = exec; Element.prototype.setAttribute = setAttribute; Reflect.apply = apply; String = string;
    })(RegExp.prototype.exec, Element.prototype.setAttribute, Reflect.apply, String);
      RegExp.prototype.exec = () => null; Element.prototype.setAttribute = function () {};
      Reflect.apply = () => undefined; String = () => ''; 0`);
    await tab.run(appending(failingImage(`${tab.watched.origin}/blinded`, 'blinded')));
    const outcome = await afterHandler(tab, 'blinded');
    await tab.asPage('unblind()');
    expect(outcome).toEqual({ reached: [], heldLater: ['GET W/blinded (Fetch)'] });
  },

  /** One the page sets by setAttribute, after an eval, sends to another origin. */
  async pageOwnAttribute(tab: LateTab): Promise<void> {
    await tab.run('1');
    const send = `pageSend('${tab.watched.origin}/own-attribute').finally(() => (window.ownSet = true))`;
    await tab.asPage(`window.own = new Image(); own.setAttribute('onerror', ${JSON.stringify(send)});
      own.src = '/slow?ms=300'; 0`);
    await tab.until('ownSet');
    expect(tab.watched.requests).toEqual(['/own-attribute']);
  },

  /** A blank frame the page makes after an eval takes HTML strings as before (it inherits Trusted Types enforcement). */
  async pageBlankFrame(tab: LateTab): Promise<void> {
    await tab.run('1');
    const written = await tab.asPage(`(() => { const frame = document.createElement('iframe');
      document.body.append(frame); frame.contentDocument.body.innerHTML = '<b>own</b>';
      return frame.contentDocument.body.innerHTML; })()`);
    expect(written).toBe('<b>own</b>');
  },

  /** After an eval the page finds no default policy where it made none (it may make one only where it finds none). */
  async pageSeesNoDefaultPolicy(tab: LateTab): Promise<void> {
    await tab.run('1');
    expect(await tab.asPage('trustedTypes.defaultPolicy')).toBeNull();
  },

  /** One the page inserts, after an eval, sends to another origin. */
  async pageOwn(tab: LateTab): Promise<void> {
    await tab.run('1');
    await tab.asPage(appending(failingImage(`${tab.watched.origin}/own`, 'own')));
    await tab.until('own');
    expect(tab.watched.requests).toEqual(['/own']);
  },
};

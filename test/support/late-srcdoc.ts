// The srcdoc pages the late-srcdoc tests have set into a frame of the page's own, and the cases both backends run on
// them: by a timer an eval leaves (the agent's) or by the page itself. Each page sends to `target` its own way as it
// loads, then tells its parent `marker`, which the maker's page records as a window flag of that name.
import { expect } from 'vitest';
import { until } from '../extension/support/until.js';
import type { LateTab } from './late-tab.js';

export type SrcdocSend = 'fetch' | 'img' | 'form';

/** The srcdoc page: a fetch, an image, or a form it submits at once, to `target`; then `marker` to its parent. */
export function srcdocSending(kind: SrcdocSend, target: string, marker: string): string {
  const tell = `parent.postMessage('${marker}', '*')`;
  const pages: Record<SrcdocSend, string> = {
    fetch:
      `<script>fetch(${JSON.stringify(target)}, { mode: 'no-cors' }).catch(() => undefined).finally(() => ${tell})</scr` +
      `ipt>`,
    img: `<img src="${target}" onload="${tell}" onerror="${tell}">`,
    form:
      `<form action="${target}"><input name="k" value="secret"></form><script>document.forms[0].submit(); ${tell}</scr` +
      `ipt>`,
  };
  return pages[kind];
}

/** Adds a frame of the page's own, `id`, with nothing in it: run as the page's code, with no eval open. */
export function ownFrame(id: string): string {
  return `document.body.append(Object.assign(document.createElement('iframe'), { id: ${JSON.stringify(id)} })); 0`;
}

/** Code that turns the page's `marker` true once a frame tells it. */
export function listen(marker: string): string {
  return `addEventListener('message', (event) => { if (event.data === ${JSON.stringify(marker)}) window[event.data] = true; });`;
}

/**
 * Sets `html` as the srcdoc of frame `id` a second from now (`by`: `srcdoc`, the property, or `setAttribute` taken from
 * another frame's realm), and turns the page's `marker` true once the page told it.
 */
export function srcdocLater(
  id: string,
  html: string,
  marker: string,
  by: 'srcdoc' | 'setAttribute' = 'srcdoc',
): string {
  const frame = `document.getElementById(${JSON.stringify(id)})`;
  const set =
    by === 'srcdoc'
      ? `${frame}.srcdoc = ${JSON.stringify(html)}`
      : `frames[0].Element.prototype.setAttribute.call(${frame}, 'srcdoc', ${JSON.stringify(html)})`;
  return `${listen(marker)} setTimeout(() => { ${set}; }, 1000); 0`;
}

/**
 * The next results' first non-empty list of what was held: a form's navigation may pause a moment after its page told
 * the marker, so each look is an eval of its own.
 */
async function nextHeld(tab: LateTab): Promise<string[]> {
  const named: string[] = [];
  await until(
    async () => (named.push(...tab.heldLater(await tab.run('1'))), named),
    (held) => held.length > 0,
  );
  return named;
}

/** What reached W, and what the next results name, once the srcdoc page a timer of the script's set has sent. */
async function timerSet(tab: LateTab, kind: SrcdocSend, by: 'srcdoc' | 'setAttribute' = 'srcdoc') {
  // Not the kind's own name: the page would set its `fetch` to true.
  const marker = `${kind}-${by}`;
  await tab.asPage(ownFrame(marker));
  await tab.run(srcdocLater(marker, srcdocSending(kind, `${tab.watched.origin}/${marker}`, marker), marker, by));
  await tab.until(marker);
  const reached = await tab.reached();
  return { reached, heldLater: await nextHeld(tab) };
}

/** Adds a frame of the page's own, `id`, showing `url` of another site (so in a process of its own), once it loaded. */
function otherSiteFrame(id: string, url: string): string {
  return `new Promise((resolve) => document.body.append(Object.assign(document.createElement('iframe'),
    { id: ${JSON.stringify(id)}, src: ${JSON.stringify(url)}, onload: () => resolve(0) })))`;
}

/** The cases run on a frame of another site's page (`frameUrl`), in both backends. */
export const remoteSrcdocCases = {
  /** A timer the script left sets its srcdoc: the frame comes back into its parent's process, whose page fetches. */
  async timerSets(tab: LateTab, frameUrl: string): Promise<void> {
    await tab.asPage(otherSiteFrame('remoteTimer', frameUrl));
    const html = srcdocSending('fetch', `${tab.watched.origin}/remote-timer`, 'remoteTimer');
    await tab.run(srcdocLater('remoteTimer', html, 'remoteTimer'));
    await tab.until('remoteTimer');
    const reached = await tab.reached();
    expect({ reached, heldLater: await nextHeld(tab) }).toEqual({
      reached: [],
      heldLater: ['GET W/remote-timer (Fetch)'],
    });
  },

  /**
   * The page brings the frame back (to about:blank) after a script ran; a timer a later script leaves fetches through its
   * window. A document committed on the way back is never paused unless Fetch is enabled again (measured on Chromium 156);
   * a send in the moment between its commit and that is not held (a residual: the page's own return is not refused).
   */
  async fetchThroughBrought(tab: LateTab, frameUrl: string): Promise<void> {
    await tab.asPage(otherSiteFrame('brought', frameUrl));
    await tab.run('1');
    await tab.asPage(`new Promise((resolve) => Object.assign(document.getElementById('brought'),
      { onload: () => resolve(0), src: 'about:blank' }))`);
    await tab.run(`setTimeout(() => document.getElementById('brought').contentWindow
      .fetch(${JSON.stringify(`${tab.watched.origin}/brought`)}, { mode: 'no-cors' }).catch(() => undefined)
      .finally(() => { window.brought = true; }), 500); 0`);
    await tab.until('brought');
    const reached = await tab.reached();
    expect({ reached, heldLater: await nextHeld(tab) }).toEqual({ reached: [], heldLater: ['GET W/brought (Fetch)'] });
  },

  /** The page's own srcdoc set there, after the script, loads its image from another origin. */
  async pageOwnSet(tab: LateTab, frameUrl: string): Promise<void> {
    await tab.asPage(otherSiteFrame('remote', frameUrl));
    await tab.run('1');
    const html = JSON.stringify(srcdocSending('img', `${tab.watched.origin}/remote-own`, 'remoteOwn'));
    await tab.asPage(`addEventListener('message', (event) => { if (event.data === 'remoteOwn') window.remoteOwn = true; });
      document.getElementById('remote').srcdoc = ${html}; 0`);
    await tab.until('remoteOwn');
    expect(tab.watched.requests).toEqual(['/remote-own']);
  },
};

/** The cases both backends run, each a test's whole body on the backend's tab; the test files name them. */
export const srcdocCases = {
  async fetches(tab: LateTab): Promise<void> {
    expect(await timerSet(tab, 'fetch')).toEqual({ reached: [], heldLater: ['GET W/fetch-srcdoc (Fetch)'] });
  },

  async showsImage(tab: LateTab): Promise<void> {
    expect(await timerSet(tab, 'img')).toEqual({ reached: [], heldLater: ['GET W/img-srcdoc (Image)'] });
  },

  async submitsForm(tab: LateTab): Promise<void> {
    expect(await timerSet(tab, 'form')).toEqual({
      reached: [],
      heldLater: ['GET W/form-srcdoc?k=[redacted 6 chars] (navigation)'],
    });
  },

  async setThroughOtherRealm(tab: LateTab): Promise<void> {
    expect(await timerSet(tab, 'fetch', 'setAttribute')).toEqual({
      reached: [],
      heldLater: ['GET W/fetch-setAttribute (Fetch)'],
    });
  },

  /** The page's own srcdoc set, after the script, loads its image from another origin. */
  async pageOwnSet(tab: LateTab): Promise<void> {
    await tab.asPage(ownFrame('mail'));
    await tab.run('1');
    const html = JSON.stringify(srcdocSending('img', `${tab.watched.origin}/own-img`, 'ownImg'));
    await tab.asPage(`addEventListener('message', (event) => { if (event.data === 'ownImg') window.ownImg = true; });
      document.getElementById('mail').srcdoc = ${html}; 0`);
    await tab.until('ownImg');
    expect(tab.watched.requests).toEqual(['/own-img']);
  },

  /**
   * A MutationObserver the script left sets the srcdoc of a frame the page inserts, in the insertion's own task: before
   * any breakpoint stands on the new frame's owner, so the handler policy's pause on the srcdoc sink tells it.
   */
  async observerSets(tab: LateTab): Promise<void> {
    const html = srcdocSending('fetch', `${tab.watched.origin}/observed`, 'observed');
    await tab.run(`${listen('observed')} new MutationObserver((records) => { for (const record of records)
      for (const node of record.addedNodes) if (node.id === 'observed') node.srcdoc = ${JSON.stringify(html)};
    }).observe(document.body, { childList: true }); 0`);
    await tab.asPage(ownFrame('observed'));
    await tab.until('observed');
    const reached = await tab.reached();
    expect({ reached, heldLater: await nextHeld(tab) }).toEqual({ reached: [], heldLater: ['GET W/observed (Fetch)'] });
  },

  /** The page's own srcdoc set on a frame it inserts, in the insertion's own task, loads its image from another origin. */
  async pageSetsAsInserted(tab: LateTab): Promise<void> {
    await tab.run('1');
    const html = srcdocSending('img', `${tab.watched.origin}/own-inserted`, 'ownInserted');
    await tab.asPage(`${listen('ownInserted')} ${ownFrame('ownInserted')}
      document.getElementById('ownInserted').srcdoc = ${JSON.stringify(html)}; 0`);
    await tab.until('ownInserted');
    expect(tab.watched.requests).toEqual(['/own-inserted']);
  },

  /** A timer of the script's writes, through innerHTML, an image whose error handler fetches into the page's frame. */
  async innerHtmlImage(tab: LateTab): Promise<void> {
    const send = `fetch('${tab.watched.origin}/inner', { mode: 'no-cors' }).finally(() => parent.window.inner = true)`;
    const html = JSON.stringify(`<img src=x onerror="${send}">`);
    await tab.asPage(ownFrame('inner'));
    await tab.run(
      `setTimeout(() => { document.getElementById('inner').contentDocument.body.innerHTML = ${html}; }, 1000); 0`,
    );
    await tab.until('inner');
    const reached = await tab.reached();
    expect({ reached, heldLater: await nextHeld(tab) }).toEqual({ reached: [], heldLater: ['GET W/inner (Fetch)'] });
  },
};

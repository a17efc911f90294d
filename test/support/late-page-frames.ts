// The late cases both backends run for a frame the PAGE made (before the eval, or after it from its own timer), whose
// realm the page's code created: a later timer of the script's reaches through it with WebSockets and a fetch.
import { expect } from 'vitest';
import type { LateTab } from './late-tab.js';

/** The frame's document, when the page makes it, and how the script's timer names its realm. */
export interface PageFrame {
  kind: 'blank-before' | 'srcdoc-before' | 'blank-after' | 'same-origin-after';
  /** The page inserts it after the eval returned, from a timer of its own. */
  after: boolean;
  /** What the iframe element gets before the page appends it. */
  attributes: string;
  /** The socket constructor the script calls in the frame's realm. */
  stream: boolean;
  /** The script reaches the realm through the element's contentWindow, not `frames[name]`. */
  contentWindow: boolean;
}

export const PAGE_FRAMES: readonly PageFrame[] = [
  { kind: 'blank-before', after: false, attributes: '{}', stream: false, contentWindow: false },
  { kind: 'srcdoc-before', after: false, attributes: `{ srcdoc: '<p>page</p>' }`, stream: true, contentWindow: true },
  { kind: 'blank-after', after: true, attributes: '{}', stream: false, contentWindow: true },
  { kind: 'same-origin-after', after: true, attributes: '{ src: location.href }', stream: false, contentWindow: false },
];

// Several sockets, so a run where one handshake beats the rule shows.
const SOCKETS = 3;

/** The page's own code: it inserts the frame named `name` and, once its document is there, runs code in its realm. */
function pageInserts(frame: PageFrame, name: string): string {
  return `new Promise((resolve) => { const frame = Object.assign(document.createElement('iframe'), ${frame.attributes},
      { name: ${JSON.stringify(name)} });
    const touch = () => { frame.contentWindow.document.title = 'made by the page'; resolve(true); };
    ${frame.attributes === '{}' ? 'document.body.append(frame); touch();' : `frame.onload = touch; document.body.append(frame);`}
  })`;
}

/**
 * The eval's script: a timer that waits (polling each 200 ms, from 1 s on) for the page's frame `name` to be loaded,
 * then opens sockets to `base` + i and fetches `base`-fetch through that frame's realm.
 */
function scriptReaches(frame: PageFrame, name: string, base: string, marker: string): string {
  const url = `${JSON.stringify(base)} + i + '?secret=' + encodeURIComponent(document.title)`;
  const realm = frame.contentWindow
    ? `document.querySelector('iframe[name=${name}]')?.contentWindow`
    : `frames[${JSON.stringify(name)}]`;
  const open = frame.stream
    ? `new realm.WebSocketStream(${url}).closed.catch(() => undefined).then(done)`
    : `new realm.WebSocket(${url}).onclose = done`;
  const fetched = `realm.fetch(${JSON.stringify(`${base.replace('ws', 'http')}-fetch`)}, { mode: 'no-cors' })`;
  return `setTimeout(() => { const poll = setInterval(() => {
      const realm = ${realm};
      if (realm?.document.title !== 'made by the page') return;
      clearInterval(poll); let count = 0; const done = () => { if (++count === ${SOCKETS + 1}) window.${marker} = true; };
      for (let i = 0; i < ${SOCKETS}; i++) ${open};
      ${fetched}.then(done, done);
    }, 200); }, 1000); 1`;
}

/** The case's whole body on a backend's tab: nothing reaches the site, the next result names each socket and the fetch. */
export function pageFrameCase(frame: PageFrame) {
  return async (tab: LateTab): Promise<void> => {
    const { kind } = frame;
    const name = `page_${kind.replaceAll('-', '_')}`;
    const marker = `reached_${name}`;
    const base = `${tab.watched.origin.replace('http', 'ws')}/${kind}`;
    // The trail follows the tab before the page makes its frame: only a later-made realm is in question here.
    await tab.run('1');
    if (!frame.after) expect(await tab.asPage(pageInserts(frame, name))).toBe(true);
    await tab.run(scriptReaches(frame, name, base, marker));
    if (frame.after) await tab.asPage(`setTimeout(() => ${pageInserts(frame, name)}, 300); 1`);
    await tab.until(marker);
    expect(await tab.reached()).toEqual([]);
    const named = tab.heldLater(await tab.run('1')).filter((entry) => entry.includes(`/${kind}`));
    expect(named).toHaveLength(SOCKETS + 1);
  };
}

/**
 * After the cases (it changes what a later case meets on main's code: run last): the page's own sockets through the
 * frames it made still go, past the constructor's pause each realm now has.
 */
export async function pageOwnSockets(tab: LateTab): Promise<void> {
  const base = `${tab.watched.origin.replace('http', 'ws')}/own`;
  await tab.asPage(`Promise.all(Array.from({ length: frames.length }, (_, i) => frames[i]).map((realm, i) => new Promise((resolve) => {
    new realm.WebSocket(${JSON.stringify(base)} + i).onclose = resolve; })))`);
  const frames = PAGE_FRAMES.length;
  expect((await tab.reached()).filter((path) => path.startsWith('/own'))).toHaveLength(frames);
}

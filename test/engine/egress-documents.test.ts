// Documents an agent's script makes, on real Chromium: a srcdoc, blob or data frame, a blob window, a blank window it
// writes into. Their own scripts are not the tagged one, yet what they send later reaches no one but their maker's
// origin, and the next result names it; the page's own such frames send as they like.
import { describe, expect, it } from 'vitest';
import { EVAL_ACTIVATION_MS } from '../../shared/engine/scripted-documents.js';
import { documentCases, lateDocument, sends } from '../support/late-documents.js';
import { ownFrame } from '../support/late-srcdoc.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const engine = watchedEngineTab({ popups: true });
const { run, asPage, until, heldLater, reached } = engine;

/**
 * What a window the script writes sends as it is written (an image, its first inline script) and as it loads (an
 * inline handler, whose stack names only the written page): what reached W, and each request named, once, in the
 * script's own result or the next one's. Its kind is left out: the eval's hold names one it holds as Fetch pauses it.
 */
async function sendsAtOnce(marker: string, expression: string) {
  const first = await run(expression);
  await until(marker);
  const named = [first, await run('1')].flatMap((result) => [
    ...((result.data?.['held'] ?? []) as string[]).map((entry) => entry.replaceAll(engine.watched.origin, 'W')),
    ...heldLater(result),
  ]);
  return { reached: await reached(), named: [...new Set(named.map((entry) => entry.replace(/ \(.*\)$/, '')))].sort() };
}

/** A written window's HTML: an image, a failing one's handler and a script that send, then its opener told `marker`. */
const atOnce = (name: string) =>
  JSON.stringify(
    `<img src="${engine.watched.origin}/${name}-img"><img src="/missing-${name}"
      onerror="window.handled = fetch('${engine.watched.origin}/${name}-handler', { mode: 'no-cors' }).catch(() => undefined)">
    <script>const first = fetch('${engine.watched.origin}/${name}-first', { mode: 'no-cors' }).catch(() => undefined);
    addEventListener('load', () => Promise.all([first, window.handled]).finally(() => opener.postMessage('${name}', '*')));
    </scr` + `ipt>`,
  );
const listen = `addEventListener('message', (event) => (window[event.data] = true));`;
const sentAtOnce = (name: string, prefix: string) => [
  `${prefix}${name}-first`,
  `${prefix}${name}-handler`,
  `${prefix}${name}-img`,
];

describe('what a document the script made sends later stays held', () => {
  it('a srcdoc frame', () => documentCases.made('srcdoc')(engine));

  it('a blob frame', () => documentCases.made('blob-frame')(engine));

  it('a data frame', () => documentCases.made('data-frame')(engine));

  it('a blob window', () => documentCases.made('blob-window')(engine));

  // Its fetch pauses in the opener's session; the window's session tells its initiator, the eval on its async stack.
  it('a blank window the script writes into', () => documentCases.made('written-window')(engine));

  it('a blob window that sends as it loads: the image its parser asks for, its first script’s fetch', async () => {
    const blob = `URL.createObjectURL(new Blob([${atOnce('blobNow')}], { type: 'text/html' }))`;
    expect(await sendsAtOnce('blobNow', `${listen} window.open(${blob}); 0`)).toEqual({
      reached: [],
      named: sentAtOnce('blobNow', 'GET W/'),
    });
  });

  it('a blank window the script writes into that sends as it is written', async () => {
    const write = `const written = window.open(''); written.document.write(${atOnce('writtenNow')});
      written.document.close();`;
    expect(await sendsAtOnce('writtenNow', `${listen} ${write} 0`)).toEqual({
      reached: [],
      named: sentAtOnce('writtenNow', 'GET W/'),
    });
  });

  it('a blank window the page itself writes into, after an eval, sends as it likes', async () => {
    await run('1');
    // As a person's later click would open it: with a gesture (no popup blocker stops it), after the eval's own.
    await new Promise((resolve) => setTimeout(resolve, EVAL_ACTIVATION_MS + 500));
    await engine.page.cdp.send('Runtime.evaluate', {
      userGesture: true,
      expression: `${listen} const own = window.open(''); own.document.write(${atOnce('pageWritten')});
        own.document.close(); 0`,
    });
    await until('pageWritten');
    expect((await reached()).sort()).toEqual(sentAtOnce('pageWritten', '/'));
  });

  it('a srcdoc frame a timer adds, whose code calls its parent’s fetch', async () => {
    const html =
      `<script>setTimeout(() => parent.fetch('${engine.watched.origin}/parent-call', { mode: 'no-cors' })
      .catch(() => undefined).finally(() => parent.postMessage('parentCall', '*')), 1000)</scr` + `ipt>`;
    const expression = `addEventListener('message', (event) => (window[event.data] = true));
      setTimeout(() => document.body.append(Object.assign(document.createElement('iframe'),
        { srcdoc: ${JSON.stringify(html)} })), 500); 0`;
    expect(await sends(engine, 'parentCall', expression)).toEqual({
      reached: [],
      heldLater: ['GET W/parent-call (Fetch)'],
    });
  });

  it('a frame in a srcdoc frame a timer adds, whose image the parser asks for', async () => {
    const html = `<iframe srcdoc="<img src='${engine.watched.origin}/nested'>" onload="parent.postMessage('nested', '*')">`;
    const expression = `addEventListener('message', (event) => (window[event.data] = true));
      setTimeout(() => document.body.append(Object.assign(document.createElement('iframe'),
        { srcdoc: ${JSON.stringify(html)} })), 500); 0`;
    expect(await sends(engine, 'nested', expression)).toEqual({
      reached: [],
      heldLater: ['GET W/nested (Image)'],
    });
  });

  it('the page’s own frames the script writes a srcdoc or blob page into', async () => {
    for (const id of ['own-srcdoc', 'own-blob']) await asPage(ownFrame(id));
    await documentCases.writtenInto(engine, 'srcdoc', 'own-srcdoc', 'into');
    await documentCases.writtenInto(engine, 'blob-frame', 'own-blob', 'blob-into');
  });

  it('the page’s own srcdoc and blob frames send as they like', () => documentCases.pageOwnFrames(engine));

  it('a srcdoc the page itself writes into its frame sends as it likes', async () => {
    await run('1');
    await asPage(`document.body.append(Object.assign(document.createElement('iframe'), { id: 'page-frame' }));
      ${lateDocument('srcdoc', `${engine.watched.origin}/page-into`, 'pageInto', 'page-frame')}`);
    await until('pageInto');
    expect(engine.watched.requests).toEqual(['/page-into']);
  });

  it('a blob the script downloads leaves its page’s own sends flowing', async () => {
    // A navigation to a blob Chrome does not show: it asks the network domain for it, and no page commits.
    await run(`location.href = URL.createObjectURL(new Blob(['made'], { type: 'application/octet-stream' })); 0`);
    expect(await reached()).toEqual([]);
  });
});

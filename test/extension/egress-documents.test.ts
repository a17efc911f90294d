// Documents an agent's script makes, in the person's Chrome through the real extension (as the engine's
// egress-documents test does in the fallback): what a srcdoc, blob or data frame it adds, or a blob window it opens, sends
// a second later reaches no one and the next result names it; the page's own such frames send as they like.
import { describe, expect, it } from 'vitest';
import { lateDocument, type LateDocument } from '../support/late-documents.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();
const { run, asPage, until, heldLater, reached } = egress;

/** What a document of `kind` the script makes sends a second later to W/kind: what reached W, and what was named. */
async function made(kind: LateDocument) {
  await run(lateDocument(kind, `${egress.watched.origin}/${kind}`, kind));
  await until(kind);
  return { reached: await reached(), heldLater: heldLater(await run('1')) };
}

describe('what a frame the script made sends later stays held, through the extension', () => {
  for (const kind of ['srcdoc', 'blob-frame', 'data-frame'] as const)
    it(`a ${kind.replace('-frame', '')} frame`, async () => {
      expect(await made(kind)).toEqual({ reached: [], heldLater: [`GET W/${kind} (Fetch)`] });
    });

  it('a blob window', async () => {
    expect(await made('blob-window')).toEqual({ reached: [], heldLater: ['GET W/blob-window (Fetch)'] });
  });

  it('a blob window that sends as it loads, before the engine follows it', async () => {
    const html =
      `<script>fetch('${egress.watched.origin}/blob-at-once', { mode: 'no-cors' }).catch(() => undefined)
      .finally(() => opener.postMessage('atOnce', '*'))</scr` + `ipt>`;
    await run(`addEventListener('message', (event) => { if (event.data === 'atOnce') window.atOnce = true; });
      window.open(URL.createObjectURL(new Blob([${JSON.stringify(html)}], { type: 'text/html' }))); 0`);
    await until('atOnce');
    expect(await reached()).toEqual([]);
  });

  it('the page’s own frame the script writes a srcdoc page into', async () => {
    await asPage(`document.body.append(Object.assign(document.createElement('iframe'), { id: 'own' })); 0`);
    await run(lateDocument('srcdoc', `${egress.watched.origin}/into`, 'into', 'own'));
    await until('into');
    expect({ reached: await reached(), heldLater: heldLater(await run('1')) }).toEqual({
      reached: [],
      heldLater: ['GET W/into (Fetch)'],
    });
  });

  it('the page’s own srcdoc and blob frames send as they like', async () => {
    await run('1');
    for (const kind of ['srcdoc', 'blob-frame'] as const) {
      const marker = `page-${kind}`;
      await asPage(lateDocument(kind, `${egress.watched.origin}/${marker}`, marker));
      await until(marker);
    }
    expect(egress.watched.requests).toEqual(['/page-srcdoc', '/page-blob-frame']);
  });
});

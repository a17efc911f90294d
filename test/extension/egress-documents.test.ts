// Documents an agent's script makes, in the person's Chrome through the real extension (as the engine's
// egress-documents test does in the fallback): what a srcdoc, blob or data frame it adds, or a blob window it opens, sends
// a second later reaches no one and the next result names it; the page's own such frames send as they like.
import { describe, expect, it } from 'vitest';
import { documentCases } from '../support/late-documents.js';
import { ownFrame } from '../support/late-srcdoc.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();
const { run, asPage, until, reached } = egress;

describe('what a frame the script made sends later stays held, through the extension', () => {
  for (const kind of ['srcdoc', 'blob-frame', 'data-frame'] as const)
    it(`a ${kind.replace('-frame', '')} frame`, () => documentCases.made(kind)(egress));

  it('a blob window', () => documentCases.made('blob-window')(egress));

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
    await asPage(ownFrame('own'));
    await documentCases.writtenInto(egress, 'srcdoc', 'own', 'into');
  });

  it('the page’s own srcdoc and blob frames send as they like', () => documentCases.pageOwnFrames(egress));
});

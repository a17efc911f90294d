// A srcdoc a timer the agent's script left sets into a frame of the page's own, on real Chromium: the set names no stack
// and asks nothing of the network, and the srcdoc page's own code is not the tagged script, yet what it sends reaches no
// one and the next result names it. The page's own srcdoc sets, after the script, load what they like.
import { describe, expect, it } from 'vitest';
import { ownFrame, srcdocLater, srcdocSending, type SrcdocSend } from '../support/late-srcdoc.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const engine = watchedEngineTab();
const { run, asPage, until, heldLater, reached } = engine;

/** What reached W, and what the next results name, once the srcdoc page a timer of the script's set has sent. */
async function timerSet(kind: SrcdocSend, by: 'srcdoc' | 'setAttribute' = 'srcdoc') {
  const marker = `${kind}-${by}`;
  await asPage(ownFrame(marker));
  await run(srcdocLater(marker, srcdocSending(kind, `${engine.watched.origin}/${marker}`, marker), marker, by));
  await until(marker);
  const sent = await reached();
  // A form's navigation may pause a moment after its page told the marker: each look is an eval of its own.
  const named: string[] = [];
  const deadline = Date.now() + 10_000;
  while (named.length === 0 && Date.now() < deadline) named.push(...heldLater(await run('1')));
  return { reached: sent, heldLater: named };
}

describe('a srcdoc a timer the script left sets into the page’s own frame', () => {
  it('whose page fetches: held, and named', async () => {
    expect(await timerSet('fetch')).toEqual({ reached: [], heldLater: ['GET W/fetch-srcdoc (Fetch)'] });
  });

  it('whose page shows an image: held, and named', async () => {
    expect(await timerSet('img')).toEqual({ reached: [], heldLater: ['GET W/img-srcdoc (Image)'] });
  });

  it('whose page submits a form: held, and named', async () => {
    expect(await timerSet('form')).toEqual({
      reached: [],
      heldLater: ['GET W/form-srcdoc?k=[redacted 6 chars] (navigation)'],
    });
  });

  it('set through another realm’s setAttribute: held, and named', async () => {
    expect(await timerSet('fetch', 'setAttribute')).toEqual({
      reached: [],
      heldLater: ['GET W/fetch-setAttribute (Fetch)'],
    });
  });

  it('the page’s own srcdoc set, after the script, loads its image from another origin', async () => {
    await asPage(ownFrame('mail'));
    await run('1');
    await asPage(`addEventListener('message', (event) => { if (event.data === 'ownImg') window.ownImg = true; });
      document.getElementById('mail').srcdoc = ${JSON.stringify(srcdocSending('img', `${engine.watched.origin}/own-img`, 'ownImg'))}; 0`);
    await until('ownImg');
    expect(engine.watched.requests).toEqual(['/own-img']);
  });
});

describe('what a timer the script left writes into the page’s own frame’s document', () => {
  /** What reached W, and what the next results name, once what `write` put in frame `id` has sent. */
  async function written(id: string, write: (doc: string) => string) {
    await asPage(ownFrame(id));
    await run(
      `setTimeout(() => { const doc = document.getElementById('${id}').contentDocument; ${write('doc')}; }, 1000); 0`,
    );
    await until(id);
    const sent = await reached();
    const named: string[] = [];
    const deadline = Date.now() + 10_000;
    while (named.length === 0 && Date.now() < deadline) named.push(...heldLater(await run('1')));
    return { reached: sent, heldLater: named };
  }
  const tell = (id: string) => `parent.window.${id} = true`;

  it('an image whose error handler fetches, through innerHTML: held, and named', async () => {
    const html = `<img src=x onerror="fetch('${engine.watched.origin}/inner', { mode: 'no-cors' }).finally(() => ${tell('inner')})">`;
    expect(await written('inner', (doc) => `${doc}.body.innerHTML = ${JSON.stringify(html)}`)).toEqual({
      reached: [],
      heldLater: ['GET W/inner (Fetch)'],
    });
  });
});

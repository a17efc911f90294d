// A srcdoc a timer the agent's script left sets into a frame of the page's own, in the person's Chrome through the real
// extension (as the engine's egress-srcdoc-timers test does in the fallback): what its page sends reaches no one and the
// next result names it, as does what such a timer writes into the frame's document; the page's own srcdoc set, after
// the script, loads its image from another origin.
import { describe, expect, it } from 'vitest';
import { ownFrame, srcdocLater, srcdocSending, type SrcdocSend } from '../support/late-srcdoc.js';
import { until as untilRead } from './support/until.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();
const { run, asPage, until, heldLater, reached } = egress;

/** What reached W, and what the next results name, once the srcdoc page a timer of the script's set has sent. */
async function timerSet(kind: SrcdocSend) {
  // Not the kind's own name: the page would set its `fetch` to true.
  const marker = `${kind}-srcdoc`;
  await asPage(ownFrame(marker));
  await run(srcdocLater(marker, srcdocSending(kind, `${egress.watched.origin}/${marker}`, marker), marker));
  await until(marker);
  const sent = await reached();
  // A form's navigation may pause a moment after its page told the marker: each look is an eval of its own.
  const named: string[] = [];
  await untilRead(
    async () => (named.push(...heldLater(await run('1'))), named),
    (held) => held.length > 0,
  );
  return { reached: sent, heldLater: named };
}

describe('a srcdoc a timer the script left sets into the page’s own frame, through the extension', () => {
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

  it('the page’s own srcdoc set, after the script, loads its image from another origin', async () => {
    await asPage(ownFrame('mail'));
    await run('1');
    await asPage(`addEventListener('message', (event) => { if (event.data === 'ownImg') window.ownImg = true; });
      document.getElementById('mail').srcdoc = ${JSON.stringify(srcdocSending('img', `${egress.watched.origin}/own-img`, 'ownImg'))}; 0`);
    await until('ownImg');
    expect(egress.watched.requests).toEqual(['/own-img']);
  });

  it('an image whose error handler fetches, written into the page’s own frame through innerHTML: held, and named', async () => {
    const html = `<img src=x onerror="fetch('${egress.watched.origin}/inner', { mode: 'no-cors' }).finally(() => parent.window.inner = true)">`;
    await asPage(ownFrame('inner'));
    await run(
      `setTimeout(() => { document.getElementById('inner').contentDocument.body.innerHTML = ${JSON.stringify(html)}; }, 1000); 0`,
    );
    await until('inner');
    const sent = await reached();
    const named: string[] = [];
    await untilRead(
      async () => (named.push(...heldLater(await run('1'))), named),
      (held) => held.length > 0,
    );
    expect({ reached: sent, heldLater: named }).toEqual({ reached: [], heldLater: ['GET W/inner (Fetch)'] });
  });
});

// Inline event handlers an agent's script leaves in the page, in the person's Chrome through the real extension (as the
// engine's egress-handlers test does in the fallback): the attacks are written and skipped, as no signal Chrome gives
// ties a handler's run to who set it (measurements there); the page's own handler, after an eval, keeps sending.
import { describe, expect, it } from 'vitest';
import { appending, detachedImage, failingImage } from '../support/late-handlers.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();
const { run, asPage, until, heldLater, reached } = egress;

/** What reached W, and what the next result names, once the handler the script left has run. */
async function afterHandler(marker: string) {
  await until(marker);
  return { reached: await reached(), heldLater: heldLater(await run('1')) };
}

describe('an inline handler the script leaves in the page, through the extension', () => {
  it.skip('inserted during the eval: its fetch is held, and named', async () => {
    await run(appending(failingImage(`${egress.watched.origin}/inserted`, 'inserted')));
    expect(await afterHandler('inserted')).toEqual({ reached: [], heldLater: ['GET W/inserted (Fetch)'] });
  });

  it.skip('inserted by a timer the script left: its fetch is held, and named', async () => {
    const later = JSON.stringify(appending(failingImage(`${egress.watched.origin}/timer`, 'timer')));
    await run(`setTimeout(${later}, 1000); 0`);
    expect(await afterHandler('timer')).toEqual({ reached: [], heldLater: ['GET W/timer (Fetch)'] });
  });

  it.skip('on an image never inserted, calling the page’s own send: held, and named', async () => {
    await run(detachedImage(`${egress.watched.origin}/detached`, 'detached'));
    expect(await afterHandler('detached')).toEqual({ reached: [], heldLater: ['GET W/detached (Fetch)'] });
  });
});

describe('the page’s own inline handlers, after an eval, through the extension', () => {
  it('one the page inserts sends to another origin', async () => {
    await run('1');
    await asPage(appending(failingImage(`${egress.watched.origin}/own`, 'own')));
    await until('own');
    expect(egress.watched.requests).toEqual(['/own']);
  });
});

// A click listener the agent's script leaves in the page, run by the person's own click well after the eval (past the
// six seconds in which a window the page opens is taken for the script's), on real Chromium: what it sends with the
// person's gesture is still the script's. The two skipped cases are open (#11): a window a listener opens through a
// link or a form with a target names no stack anywhere Chrome tells us of, and the gesture makes it look the person's.
import { describe, expect, it } from 'vitest';
import { loadUrl } from '../support/browser.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const engine = watchedEngineTab({ popups: true });
/** Past the six seconds after an eval in which any window the tab opens is taken for the script's. */
const PAST_THE_EVAL_MS = 6_500;

/** Leaves a one-time click listener on the document that runs `then` and sets `marker`; returns once 6.5 s passed. */
async function leaveClickListener(then: string, marker: string): Promise<void> {
  await loadUrl(engine.page, engine.suite.server.url('egress-late.html'));
  await engine.run(`document.addEventListener('click', () => { ${then}; window.${marker} = true; }, { once: true }); 0`);
  await new Promise((resolve) => setTimeout(resolve, PAST_THE_EVAL_MS));
}

/** The person's click on the page (the mouse, through the browser's input, not a script's event). */
async function personClicks(): Promise<void> {
  for (const type of ['mousePressed', 'mouseReleased'])
    await engine.page.cdp.send('Input.dispatchMouseEvent', { type, x: 5, y: 5, button: 'left', clickCount: 1 });
}

/** What reached W and what the next result names, once the listener ran and the page's own send arrived. */
async function outcome(marker: string) {
  await engine.until(marker);
  const reached = await engine.reached();
  return { reached, heldLater: engine.heldLater(await engine.run('1')) };
}

describe('a click listener the script left, run by the person’s click long after the eval', () => {
  it('fetching: held, and named', async () => {
    await leaveClickListener(`fetch('${engine.watched.origin}/click-fetch', { mode: 'no-cors' })`, 'clickFetched');
    await personClicks();
    expect(await outcome('clickFetched')).toEqual({ reached: [], heldLater: ['GET W/click-fetch (Fetch)'] });
  }, 60_000);

  it('opening a window by window.open: held, and named', async () => {
    await leaveClickListener(`window.open('${engine.watched.origin}/click-open')`, 'clickOpened');
    await personClicks();
    expect(await outcome('clickOpened')).toEqual({ reached: [], heldLater: ['GET W/click-open (navigation)'] });
  }, 60_000);

  // Open: Page.windowOpen and the window's first request name no stack; event-listener breakpoints would name the
  // listener (they pause at its first statement, with breakpoints active: measured), a timer polling
  // navigator.userActivation would not.
  it.skip('opening a window through a link with a target: held, and named', async () => {
    const link = `const a = Object.assign(document.createElement('a'), { href: '${engine.watched.origin}/click-link',
      target: '_blank' }); document.body.append(a); a.click()`;
    await leaveClickListener(link, 'clickLinked');
    await personClicks();
    expect(await outcome('clickLinked')).toEqual({ reached: [], heldLater: ['GET W/click-link (navigation)'] });
  }, 60_000);

  it.skip('opening a window through a form with a target: held, and named', async () => {
    const form = `const f = Object.assign(document.createElement('form'), { action: '${engine.watched.origin}/click-form',
      target: '_blank' }); document.body.append(f); f.submit()`;
    await leaveClickListener(form, 'clickSubmitted');
    await personClicks();
    expect(await outcome('clickSubmitted')).toEqual({ reached: [], heldLater: ['GET W/click-form? (navigation)'] });
  }, 60_000);
});

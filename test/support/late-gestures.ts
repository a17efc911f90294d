// The cases both backends run with a click listener left in the page and run by the person's own click well after the
// eval (past the six seconds in which a window the tab opens is taken for the script's): the script's listener's sends
// and windows are held and named, a window it opens through a link or a form with a target too (gesture-listeners.ts);
// the page's own listener's window loads, and its `debugger;` statement does not stop it.
import { expect } from 'vitest';
import { lateOutcome, type LateTab } from './late-tab.js';

/** Past the six seconds after an eval in which any window the tab opens is taken for the script's. */
const PAST_THE_EVAL_MS = 6_500;

/** Code that clicks a new link to `url` with a target. */
export const clickLink = (url: string) =>
  `const a = Object.assign(document.createElement('a'), { href: '${url}', target: '_blank' });
    document.body.append(a); a.click()`;

/** Code that submits a new form to `url` with a target. */
const submitForm = (url: string) =>
  `const f = Object.assign(document.createElement('form'), { action: '${url}', target: '_blank' });
    document.body.append(f); f.submit()`;

/** A statement that leaves a one-time click listener on the document that runs `then` and sets `marker`. */
export const listensOnce = (then: string, marker: string) =>
  `document.addEventListener('click', () => { ${then}; window.${marker} = true; }, { once: true })`;

/**
 * Runs `leaves` (a statement leaving a click listener: the script's, or the page's when `byPage`, after an eval), lets
 * 6.5 s pass, and has the person click.
 */
export async function personClicksAfterListening(tab: LateTab, leaves: string, byPage = false): Promise<void> {
  await tab.run(byPage ? '1' : `${leaves}; 0`);
  if (byPage) await tab.asPage(`${leaves}; 0`);
  await new Promise((resolve) => setTimeout(resolve, PAST_THE_EVAL_MS));
  await tab.personClicks();
}

/** Leaves a one-time click listener on the document (the script's, or the page's when `byPage`), as above. */
const personClicksAfter = (tab: LateTab, then: string, marker: string, byPage = false) =>
  personClicksAfterListening(tab, listensOnce(then, marker), byPage);

/** A window's navigation as either backend names it: the extension cannot tell the method of a link's or form's. */
export const windowHeld = (path: string) => [expect.stringMatching(new RegExp(`^(GET )?W${path} \\(navigation`))];

export const gestureCases = {
  async fetches(tab: LateTab): Promise<void> {
    await personClicksAfter(tab, `fetch('${tab.watched.origin}/click-fetch', { mode: 'no-cors' })`, 'clickFetched');
    expect(await lateOutcome(tab, 'clickFetched')).toEqual({ reached: [], heldLater: ['GET W/click-fetch (Fetch)'] });
  },

  async opensWindow(tab: LateTab): Promise<void> {
    await personClicksAfter(tab, `window.open('${tab.watched.origin}/click-open')`, 'clickOpened');
    expect(await lateOutcome(tab, 'clickOpened')).toEqual({
      reached: [],
      heldLater: windowHeld('/click-open'),
    });
  },

  async clicksLink(tab: LateTab): Promise<void> {
    await personClicksAfter(tab, clickLink(`${tab.watched.origin}/click-link`), 'clickLinked');
    expect(await lateOutcome(tab, 'clickLinked')).toEqual({
      reached: [],
      heldLater: windowHeld('/click-link'),
    });
  },

  async submitsForm(tab: LateTab): Promise<void> {
    await personClicksAfter(tab, submitForm(`${tab.watched.origin}/click-form`), 'clickSubmitted');
    expect(await lateOutcome(tab, 'clickSubmitted')).toEqual({
      reached: [],
      heldLater: windowHeld('/click-form'),
    });
  },

  async pageOwnLink(tab: LateTab): Promise<void> {
    await personClicksAfter(tab, clickLink(`${tab.watched.origin}/page-link`), 'pageLinked', true);
    await tab.until('pageLinked');
    await expect.poll(() => tab.watched.requests, { timeout: 10_000 }).toContain('/page-link');
  },

  async pageDebuggerStatement(tab: LateTab): Promise<void> {
    await tab.run('1');
    expect(await tab.asPage(`(() => { debugger; return 'went on'; })()`)).toBe('went on');
  },
};

// The cases both backends run with a click listener left in the page and run by the person's own click well after the
// eval (past the six seconds in which a window the tab opens is taken for the script's): the script's listener's sends
// and windows are held and named, a window it opens through a link or a form with a target too (gesture-listeners.ts);
// the page's own listener's window loads, and its `debugger;` statement does not stop it.
import { expect } from 'vitest';
import type { LateCase } from './late-cases.js';
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

/** Runs `leaves` (a statement leaving a click listener: the script's, or the page's when `byPage`, after an eval). */
export async function leavesListener(tab: LateTab, leaves: string, byPage = false): Promise<void> {
  await tab.run(byPage ? '1' : `${leaves}; 0`);
  if (byPage) await tab.asPage(`${leaves}; 0`);
}

/** Lets the six seconds after the tab's last eval pass. */
export const pastTheEval = () => new Promise((resolve) => setTimeout(resolve, PAST_THE_EVAL_MS));

/** A window's navigation as either backend names it: the extension cannot tell the method of a link's or form's. */
export const windowHeld = (path: string) => [expect.stringMatching(new RegExp(`^(GET )?W${path} \\(navigation`))];

/** The script's listener runs `then` (given the watched origin) on the person's click long after the eval: held, named. */
const heldCase = (name: string, then: (origin: string) => string, marker: string, held: unknown[]): LateCase => ({
  name: `${name}: held, and named`,
  async prepare(tab) {
    await leavesListener(tab, listensOnce(then(tab.watched.origin), marker));
    return async () => {
      await tab.personClicks();
      expect(await lateOutcome(tab, marker)).toEqual({ reached: [], heldLater: held });
    };
  },
});

/** The script's listeners (late-cases.ts runs them). */
export const gestureCases = [
  heldCase('fetching', (origin) => `fetch('${origin}/click-fetch', { mode: 'no-cors' })`, 'clickFetched', [
    'GET W/click-fetch (Fetch)',
  ]),
  heldCase(
    'opening a window by window.open',
    (origin) => `window.open('${origin}/click-open')`,
    'clickOpened',
    windowHeld('/click-open'),
  ),
  heldCase(
    'opening a window through a link with a target',
    (origin) => clickLink(`${origin}/click-link`),
    'clickLinked',
    windowHeld('/click-link'),
  ),
  heldCase(
    'opening a window through a form with a target',
    (origin) => submitForm(`${origin}/click-form`),
    'clickSubmitted',
    windowHeld('/click-form'),
  ),
];

/** The page's own listener, left after an eval: its window loads. */
export const pageOwnLink: LateCase = {
  name: 'a click listener opening a window through a link: it loads',
  async prepare(tab) {
    await leavesListener(tab, listensOnce(clickLink(`${tab.watched.origin}/page-link`), 'pageLinked'), true);
    return async () => {
      await tab.personClicks();
      await tab.until('pageLinked');
      await expect.poll(() => tab.watched.requests, { timeout: 10_000 }).toContain('/page-link');
    };
  },
};

/** The page's own `debugger;` statement, after an eval, does not stop it. */
export async function pageDebuggerStatement(tab: LateTab): Promise<void> {
  await tab.run('1');
  expect(await tab.asPage(`(() => { debugger; return 'went on'; })()`)).toBe('went on');
}

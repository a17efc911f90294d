// A click listener the agent's script leaves in the page, run by the person's own click long after the eval, through
// the real extension (as the engine's egress-gesture test does in the fallback, late-gestures.ts).
import { describe, it } from 'vitest';
import { gestureCases } from '../support/late-gestures.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();

describe('a click listener the script left, run by the person’s click long after the eval, through the extension', () => {
  it('fetching: held, and named', () => gestureCases.fetches(egress), 60_000);

  it('opening a window by window.open: held, and named', () => gestureCases.opensWindow(egress), 60_000);

  it('opening a window through a link with a target: held, and named', () => gestureCases.clicksLink(egress), 60_000);

  it('opening a window through a form with a target: held, and named', () => gestureCases.submitsForm(egress), 60_000);
});

describe('the page’s own, after an eval, through the extension', () => {
  it('a click listener opening a window through a link: it loads', () => gestureCases.pageOwnLink(egress), 60_000);

  it('a `debugger;` statement does not stop the page', () => gestureCases.pageDebuggerStatement(egress));
});

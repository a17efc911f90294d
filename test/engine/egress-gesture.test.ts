// A click listener the agent's script leaves in the page, run by the person's own click long after the eval, on real
// Chromium (late-gestures.ts): what it sends or opens with the person's gesture is still the script's.
import { describe, it } from 'vitest';
import { gestureCases } from '../support/late-gestures.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const engine = watchedEngineTab({ popups: true });

describe('a click listener the script left, run by the person’s click long after the eval', () => {
  it('fetching: held, and named', () => gestureCases.fetches(engine), 60_000);

  it('opening a window by window.open: held, and named', () => gestureCases.opensWindow(engine), 60_000);

  it('opening a window through a link with a target: held, and named', () => gestureCases.clicksLink(engine), 60_000);

  it('opening a window through a form with a target: held, and named', () => gestureCases.submitsForm(engine), 60_000);
});

describe('the page’s own, after an eval', () => {
  it('a click listener opening a window through a link: it loads', () => gestureCases.pageOwnLink(engine), 60_000);

  it('a `debugger;` statement does not stop the page', () => gestureCases.pageDebuggerStatement(engine));
});

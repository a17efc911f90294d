// A click listener the agent's script leaves in the page, run by the person's own click long after the eval, on real
// Chromium (late-gestures.ts): what it sends or opens with the person's gesture is still the script's.
import { describe, it } from 'vitest';
import { itEachOnItsOwnTab } from '../support/late-cases.js';
import { gestureCases, pageDebuggerStatement, pageOwnLink } from '../support/late-gestures.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const engine = watchedEngineTab({ popups: true });

describe('a click listener the script left, run by the person’s click long after the eval', () => {
  itEachOnItsOwnTab(gestureCases, () => engine.openTab());
});

describe('the page’s own, after an eval', () => {
  itEachOnItsOwnTab([pageOwnLink], () => engine.openTab());

  it('a `debugger;` statement does not stop the page', () => pageDebuggerStatement(engine));
});

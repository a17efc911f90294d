// A click listener the agent's script leaves in the page, run by the person's own click long after the eval, through
// the real extension (as the engine's egress-gesture test does in the fallback, late-gestures.ts).
import { describe, it } from 'vitest';
import { itEachOnItsOwnTab } from '../support/late-cases.js';
import { gestureCases, pageDebuggerStatement, pageOwnLink } from '../support/late-gestures.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();

describe('a click listener the script left, run by the person’s click long after the eval, through the extension', () => {
  itEachOnItsOwnTab(gestureCases, () => egress.openTab());
});

describe('the page’s own, after an eval, through the extension', () => {
  itEachOnItsOwnTab([pageOwnLink], () => egress.openTab());

  it('a `debugger;` statement does not stop the page', () => pageDebuggerStatement(egress));
});

// A click listener that is code the agent's script compiled, under any name or none, on real Chromium
// (late-compiled.ts): what it opens or sends with the person's click long after the eval is still the script's.
import { describe } from 'vitest';
import { itEachOnItsOwnTab } from '../support/late-cases.js';
import { heldCompiled, pageOwnCompiled } from '../support/late-compiled.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const engine = watchedEngineTab({ popups: true });

describe('a click listener the script compiled, run by the person’s click long after the eval', () => {
  itEachOnItsOwnTab(Object.values(heldCompiled), () => engine.openTab());
});

describe('the page’s own, after an eval', () => {
  itEachOnItsOwnTab(Object.values(pageOwnCompiled), () => engine.openTab());
});

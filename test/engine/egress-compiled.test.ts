// A click listener that is code the agent's script compiled, under any name or none, on real Chromium
// (late-compiled.ts): what it opens or sends with the person's click long after the eval is still the script's.
import { describe, it } from 'vitest';
import { heldCompiled, openCompiled, pageOwnCompiled } from '../support/late-compiled.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const engine = watchedEngineTab({ popups: true });

describe('a click listener the script compiled, run by the person’s click long after the eval', () => {
  for (const { name, run } of Object.values(heldCompiled)) it(name, () => run(engine), 60_000);
});

describe('the page’s own, after an eval', () => {
  for (const { name, run } of Object.values(pageOwnCompiled)) it(name, () => run(engine), 60_000);
});

// Open (late-compiled.ts says what was measured): fails on main and on this code.
describe.skip('a direct eval of the page’s the script’s evaluate runs', () => {
  for (const { name, run } of Object.values(openCompiled)) it(name, () => run(engine), 60_000);
});

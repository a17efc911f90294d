// A click listener that is code the agent's script compiled, run by the person's own click long after the eval, through
// the real extension (as the engine's egress-compiled test does in the fallback, late-compiled.ts).
import { describe } from 'vitest';
import { itEachOnItsOwnTab } from '../support/late-cases.js';
import { heldCompiled, pageOwnCompiled } from '../support/late-compiled.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();

describe('a click listener the script compiled, run by the person’s click long after the eval, through the extension', () => {
  itEachOnItsOwnTab(
    (
      [
        'functionLink',
        'nestedOpen',
        'indirectFetch',
        'inlineLink',
        'blobModule',
        'dataFetch',
        'timerString',
        'pageScript',
        'pageFunction',
        'pageEvalLink',
        'pageEvalFetch',
        'pageEvalDeepFetch',
        'pageEvalPausedFetch',
        'intervalFetch',
        'pageEvalLaterFetch',
        'pageTimerLink',
        'pageIntervalFetch',
        'pageFrameFunction',
      ] as const
    ).map((id) => heldCompiled[id]),
    () => egress.openTab(),
  );
});

describe('the page’s own, after an eval, through the extension', () => {
  itEachOnItsOwnTab(Object.values(pageOwnCompiled), () => egress.openTab());
});

// A click listener that is code the agent's script compiled, run by the person's own click long after the eval, through
// the real extension (as the engine's egress-compiled test does in the fallback, late-compiled.ts).
import { describe, it } from 'vitest';
import { compiledCases, compilers } from '../support/late-compiled.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();

describe('a click listener the script compiled, run by the person’s click long after the eval, through the extension', () => {
  it(
    'by new Function, named as our watch, opening a window through a link: held, and named',
    () => compiledCases.clicksLink(egress, compilers.newFunction, 'functionLink'),
    60_000,
  );

  it(
    'by code the script compiled, opening a window by window.open: held, and named',
    () => compiledCases.opensWindow(egress, compilers.nested, 'nestedOpen'),
    60_000,
  );

  it(
    'by an indirect eval, named nothing, fetching: held, and named',
    () => compiledCases.fetches(egress, compilers.indirectEval, 'indirectFetch'),
    60_000,
  );

  it(
    'in an inline <script> the script inserts, opening a window through a link: held, and named',
    () => compiledCases.clicksLink(egress, compilers.inlineScript, 'inlineLink'),
    60_000,
  );
});

describe('the page’s own, after an eval, through the extension', () => {
  it(
    'a click listener it compiles, opening a window through a link: it loads',
    () => compiledCases.pageOwn(egress, compilers.newFunction, 'pageCompiledLink'),
    60_000,
  );
});

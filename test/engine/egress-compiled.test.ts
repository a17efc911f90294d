// A click listener that is code the agent's script compiled, under any name or none, on real Chromium
// (late-compiled.ts): what it opens or sends with the person's click long after the eval is still the script's.
import { describe, it } from 'vitest';
import { compiledCases, compilers } from '../support/late-compiled.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const engine = watchedEngineTab({ popups: true });

describe('a click listener the script compiled, run by the person’s click long after the eval', () => {
  it(
    'by new Function, named as our watch, opening a window through a link: held, and named',
    () => compiledCases.clicksLink(engine, compilers.newFunction, 'functionLink'),
    60_000,
  );

  it(
    'by eval, named as a file of the page, opening a window through a link: held, and named',
    () => compiledCases.clicksLink(engine, compilers.eval, 'evalLink'),
    60_000,
  );

  it(
    'by code the script compiled, opening a window by window.open: held, and named',
    () => compiledCases.opensWindow(engine, compilers.nested, 'nestedOpen'),
    60_000,
  );

  it(
    'by an indirect eval, named nothing, fetching: held, and named',
    () => compiledCases.fetches(engine, compilers.indirectEval, 'indirectFetch'),
    60_000,
  );

  it(
    'in an inline <script> the script inserts, opening a window through a link: held, and named',
    () => compiledCases.clicksLink(engine, compilers.inlineScript, 'inlineLink'),
    60_000,
  );

  it(
    'by code the script compiled, opening a window through a link: held, and named',
    () => compiledCases.clicksLink(engine, compilers.nested, 'nestedLink'),
    60_000,
  );

  // Not covered: a module imported from a blob, or a <script> loading a data URL, names no creator stack (measured on
  // Chromium 156); taking every blob or data script for the script's held the page's own blob frames' sends.
  it.skip(
    'in a module the script imports from a blob, opening a window through a link: held, and named',
    () => compiledCases.clicksLink(engine, compilers.blobModule, 'moduleLink'),
    60_000,
  );

  // Not covered: V8 names no creator stack for a timer's string (Debugger.scriptParsed has none, measured on Chromium
  // 156), so the code it compiles is no one's known code, and its listener runs with no stack of the script's.
  it.skip(
    'by a timer’s string, opening a window through a link: held, and named',
    () => compiledCases.clicksLink(engine, compilers.timerString, 'timerLink'),
    60_000,
  );

  // Not covered: Debugger.scriptParsed names only the top frame of the creator's stack (measured on Chromium 156), here
  // the page's function: the script calling it is not seen, so the code is taken for the page's.
  it.skip(
    'by a function of the page’s the script calls, opening a window through a link: held, and named',
    () => compiledCases.clicksLink(engine, compilers.pageFunction, 'pageFunctionLink'),
    60_000,
  );
});

describe('the page’s own, after an eval', () => {
  it(
    'a click listener it compiles, opening a window through a link: it loads',
    () => compiledCases.pageOwn(engine, compilers.newFunction, 'pageCompiledLink'),
    60_000,
  );
});

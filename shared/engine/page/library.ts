// The in-page library: each function below is shipped by its source text into our isolated world as `__cm.<name>`.
// Rules for files in this folder: no module-level state or imports used at run time; call siblings through `__cm`.
import { accessibleName, ariaRole } from './aria.js';
import { countElements, deepQueryAll, pickElement, queryElements } from './query.js';
import { elementForRef, refFor, refHigh, refTable } from './refs.js';

const FUNCTIONS = {
  refTable,
  refFor,
  elementForRef,
  refHigh,
  ariaRole,
  accessibleName,
  deepQueryAll,
  queryElements,
  countElements,
  pickElement,
};

export type PageLibrary = typeof FUNCTIONS;

declare global {
  var __cm: PageLibrary;
}

let source: string | undefined;

/** Script that installs the library into the current world; computed once. */
export function pageLibrarySource(): string {
  source ??= `globalThis.__cm = {${Object.entries(FUNCTIONS)
    .map(([name, fn]) => `${JSON.stringify(name)}: ${fn.toString()}`)
    .join(',\n')}};`;
  return source;
}

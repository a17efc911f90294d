// The in-page library: each function below is shipped by its source text into our isolated world as `__cm.<name>`.
// Rules for files in this folder: no module-level state or imports used at run time; call siblings through `__cm`.
import { accessibleName, ariaRole, isHidden, isInteractive } from './aria.js';
import { countElements, deepQueryAll, flatChildren, frameInfo, pickElement, queryElements } from './query.js';
import { snapshotBuild, snapshotFrame, snapshotOwner, snapshotRender } from './snapshot.js';
import { elementHtml, elementText, findElements, pageHtml, pageText, textMatches, visibleText, withoutCode } from './text.js';
import { isPasswordField, shownPasswordField } from './password.js';
import { secretFieldName } from './secret-field.js';
import { elementForRef, refFor, refHigh, refTable } from './refs.js';
import { navigationStatus } from './document.js';
import { conditionHolds, waitForCondition } from './wait.js';
import { aimPoint, composedContains, deepElementAt, describeAt, describeElement, frameOwnerAt } from './aim.js';
import { deepActiveElement, focusForInput, inputState, isEditable, pasteText } from './editing.js';
import { chooseOptions, fillField, fillFields, visibleLabel } from './form-fields.js';
import { revealElement, scrollElement, scrollPage, scrollWith } from './scrolling.js';
import { opensOnActivation } from './activation.js';
import { controlVerdict, controlVerdictAt } from './commit-control.js';
import { expectOwnEscape, indicate, indicatorHost } from './indicator.js';

const FUNCTIONS = {
  refTable,
  refFor,
  elementForRef,
  refHigh,
  ariaRole,
  accessibleName,
  isInteractive,
  isHidden,
  deepQueryAll,
  flatChildren,
  queryElements,
  countElements,
  pickElement,
  frameInfo,
  snapshotFrame,
  snapshotOwner,
  snapshotBuild,
  snapshotRender,
  isPasswordField,
  shownPasswordField,
  secretFieldName,
  visibleText,
  pageText,
  elementText,
  pageHtml,
  elementHtml,
  withoutCode,
  textMatches,
  findElements,
  conditionHolds,
  waitForCondition,
  navigationStatus,
  describeElement,
  deepElementAt,
  composedContains,
  aimPoint,
  frameOwnerAt,
  describeAt,
  deepActiveElement,
  isEditable,
  inputState,
  focusForInput,
  pasteText,
  chooseOptions,
  fillField,
  fillFields,
  visibleLabel,
  scrollWith,
  scrollElement,
  scrollPage,
  revealElement,
  opensOnActivation,
  controlVerdict,
  controlVerdictAt,
  indicate,
  indicatorHost,
  expectOwnEscape,
};

export type PageLibrary = typeof FUNCTIONS;

declare global {
  var __cm: PageLibrary;
}

let source: string | undefined;

/** Script that installs the library into the current world; computed once. */
export function pageLibrarySource(): string {
  // Bundlers that keep function names (tsx, esbuild keepNames) wrap inner functions in a `__name` helper that does
  // not travel with fn.toString(); an identity stand-in in our world keeps the shipped source runnable.
  source ??= `globalThis.__name ??= (fn) => fn;\nglobalThis.__cm = {${Object.entries(FUNCTIONS)
    .map(([name, fn]) => `${JSON.stringify(name)}: ${fn.toString()}`)
    .join(',\n')}};`;
  return source;
}

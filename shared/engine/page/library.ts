// The in-page library: each function below is shipped by its source text into our isolated world as `__cm.<name>`.
// Rules for files in this folder: no module-level state or imports used at run time; call siblings through `__cm`.
import { accessibleName, ariaRole, isHidden, isInteractive } from './aria.js';
import {
  countElements,
  deepQueryAll,
  flatChildren,
  frameInfo,
  keptElement,
  pickElement,
  queryElements,
  walkFloor,
} from './query.js';
import { snapshotBuild, snapshotWalk } from './snapshot.js';
import { snapshotFrame, snapshotOwner, snapshotStats } from './snapshot-frame.js';
import { snapshotStates } from './snapshot-states.js';
import { snapshotReadsHash, snapshotStamp } from './snapshot-watch.js';
import { snapshotRender } from './snapshot-render.js';
import {
  elementHtml,
  elementText,
  findElements,
  pageHtml,
  pageText,
  textMatches,
  textWalk,
  visibleText,
  withoutCode,
} from './text.js';
import { labelsIn, labelsOf } from './labels.js';
import { isPasswordField, shownPasswordField } from './password.js';
import { watchedPasswordField } from './password-watch.js';
import { shadowHostsIn } from './shadow-hosts.js';
import { withKeptHosts } from './kept-hosts.js';
import { isPaymentField, secretFieldName } from './secret-field.js';
import { maskSecretFields } from './capture-mask.js';
import { elementForRef, refFor, refHigh, refTable } from './refs.js';
import { navigationStatus } from './document.js';
import { conditionHolds, waitForCondition } from './wait.js';
import { aimPoint, composedContains, deepElementAt, describeAt, describeElement, frameOwnerAt } from './aim.js';
import {
  armReplace,
  deepActiveElement,
  disarmReplace,
  focusForInput,
  inputState,
  insertedState,
  isEditable,
  pasteText,
  typedState,
  watchInserted,
} from './editing.js';
import { chooseOptions, fillField, fillFields, visibleLabel } from './form-fields.js';
import { revealElement, scrollElement, scrollPage, scrollWith } from './scrolling.js';
import { activationAim, opensOnActivation } from './activation.js';
import { controlVerdict, controlVerdictAt } from './commit-control.js';
import { expectOwnEscape, indicate, indicatorHost } from './indicator.js';
import { resendRequest } from './resend.js';
import { downloadLink, fileInputInfo, putFiles, readPageUrl } from './files.js';
import { pageLinks, readableHtml } from './readable.js';
import { editorInput, editorRendered, editorRoot, editorRoots } from './editors.js';
import { dragStarted, watchDragStart } from './drag.js';
import { inspectFacts } from './inspect.js';

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
  shadowHostsIn,
  withKeptHosts,
  flatChildren,
  queryElements,
  countElements,
  walkFloor,
  pickElement,
  keptElement,
  frameInfo,
  snapshotFrame,
  snapshotOwner,
  snapshotStats,
  snapshotBuild,
  snapshotWalk,
  snapshotStates,
  snapshotStamp,
  snapshotReadsHash,
  snapshotRender,
  labelsOf,
  labelsIn,
  isPasswordField,
  shownPasswordField,
  watchedPasswordField,
  secretFieldName,
  isPaymentField,
  maskSecretFields,
  visibleText,
  textWalk,
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
  typedState,
  watchInserted,
  insertedState,
  focusForInput,
  armReplace,
  disarmReplace,
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
  activationAim,
  controlVerdict,
  controlVerdictAt,
  indicate,
  indicatorHost,
  expectOwnEscape,
  resendRequest,
  fileInputInfo,
  putFiles,
  downloadLink,
  readPageUrl,
  readableHtml,
  pageLinks,
  editorRoots,
  editorRoot,
  editorInput,
  editorRendered,
  watchDragStart,
  dragStarted,
  inspectFacts,
};

export type PageLibrary = typeof FUNCTIONS;

// How `frames.call` is typed against the library: the name is one of its functions, the args that function's
// parameters (minus the leading elements that `handles` stand for), the result its awaited return, or the object id of
// the element it returns when a handle is asked for. A wrong name, argument or result type is then a compile error.

/** A page-library function's name. */
export type PageFunction = keyof PageLibrary;

/** Object ids of elements found earlier: each fills one leading element parameter (any number fill `...Element[]`). */
export type Handles = readonly string[];

/** `P` without the leading parameters that `H` fills; never when such a parameter would not take any element. */
type AfterHandles<P extends readonly unknown[], H extends Handles> = H extends readonly []
  ? P
  : H extends readonly [string, ...infer More extends Handles]
    ? P extends readonly [infer First, ...infer Rest]
      ? [Element] extends [First]
        ? AfterHandles<Rest, More>
        : never
      : never
    : P extends readonly [...Element[], ...infer Rest]
      ? Rest
      : never;

/** The values passed after the handles. */
export type PageArgs<N extends PageFunction, H extends Handles = []> = AfterHandles<Parameters<PageLibrary[N]>, H>;

/** What the function returns once awaited, as it comes back by value. */
export type PageReturn<N extends PageFunction> = Awaited<ReturnType<PageLibrary[N]>>;

/** The call's result: the returned value, or with `returnHandle` the object id of the element returned. */
export type PageResult<N extends PageFunction, R extends boolean> = R extends true ? string : PageReturn<N>;

export interface PageCallOptions<H extends Handles, R extends boolean> {
  handles?: H;
  /** Return the result's object id instead of its value: only for a function that returns an element. */
  returnHandle?: R;
}

/** `args` then `opts` as `frames.call` takes them: args may be left out only when the function takes none. */
export type PageCallTail<N extends PageFunction, H extends Handles, R extends boolean> = R extends true
  ? PageReturn<N> extends Element
    ? ArgsThenOptions<N, H, R>
    : never
  : ArgsThenOptions<N, H, R>;

type ArgsThenOptions<N extends PageFunction, H extends Handles, R extends boolean> =
  [] extends PageArgs<N, H>
    ? [args?: PageArgs<N, H>, opts?: PageCallOptions<H, R>]
    : [args: PageArgs<N, H>, opts?: PageCallOptions<H, R>];

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

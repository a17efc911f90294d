// The cases both backends run with a click listener that is code the agent's script compiled (eval, new Function, an
// inline <script>, a timer's string, a blob or data script, code that code compiles), under any name or none, run by the
// person's own click well after the eval: its window and its fetch are held and named (script-code.ts); the page's own
// compiled listeners' load.
import { expect } from 'vitest';
import { clickLink, leavesListener, listensOnce, windowHeld } from './late-gestures.js';
import type { LateCase } from './late-cases.js';
import { lateOutcome, type LateTab } from './late-tab.js';

/** How the script makes code of a statement, and runs it. */
type Compiler = (statement: string) => string;

const js = (text: string) => JSON.stringify(text);

const compilers = {
  /** Named as our gesture watch's code is. */
  newFunction: (statement: string) =>
    `new Function(${js(`${statement}\n//# sourceURL=chrome-mcp-gestures://watch`)})()`,
  /** A direct eval, named as one of the page's own files. */
  eval: (statement: string) => `eval(${js(statement)} + '\\n//# sourceURL=' + location.origin + '/app.js')`,
  /** An indirect eval, named nothing. */
  indirectEval: (statement: string) => `(0, eval)(${js(statement)})`,
  /** An inline <script> the script inserts. */
  inlineScript: (statement: string) =>
    `document.head.append(Object.assign(document.createElement('script'), { textContent: ${js(statement)} }))`,
  /** Code that code the script compiled compiles. */
  nested: (statement: string) => `new Function(${js(`new Function(${js(statement)})()`)})()`,
  /** A module the script imports from a blob. */
  blobModule: (statement: string) =>
    `import(URL.createObjectURL(new Blob([${js(statement)}], { type: 'text/javascript' })))`,
  /** A classic <script> the script inserts, loading its code from a data URL. */
  dataScript: (statement: string) =>
    `document.head.append(Object.assign(document.createElement('script'), {
      src: 'data:text/javascript,' + encodeURIComponent(${js(statement)}),
    }))`,
  /** A string a timer of the script's runs. */
  timerString: (statement: string) => `setTimeout(${js(statement)}, 0)`,
  /** A string an interval of the script's runs, once. */
  intervalString: (statement: string) =>
    `window.scriptInterval = setInterval(${js(`clearInterval(window.scriptInterval); ${statement}`)}, 0)`,
  /** A function of the page's that compiles what the script hands it by new Function. */
  pageFunction: (statement: string) => `window.pageCompiles(${js(statement)})`,
  /** A function of the page's that runs what the script hands it in a <script> it inserts (jQuery's globalEval). */
  pageScript: (statement: string) => `window.pageInserts(${js(statement)})`,
  /** A function of the page's that runs what the script hands it by a direct eval. */
  pageEval: (statement: string) => `window.pageEvals(${js(statement)})`,
  /** The same function, called once the script's microtasks ran two hundred deep (still its evaluate's task). */
  pageEvalDeep: (statement: string) => `for (let i = 0; i < 200; i++) await 0; window.pageEvals(${js(statement)})`,
  /** The same function, called once a new Function of the script's paused it (the end mark may run in that pause). */
  pageEvalPaused: (statement: string) => `new Function('')(); window.pageEvals(${js(statement)})`,
  /** The same function, called by a timer of the script's once the eval is over. */
  pageEvalLater: (statement: string) => `setTimeout(() => window.pageEvals(${js(statement)}), 3_000)`,
  /** A function of the page's that hands what the script hands it to a timer, as a string. */
  pageTimer: (statement: string) => `window.pageDefers(${js(statement)})`,
  /** A function of the page's that hands what the script hands it to an interval, as a string, run once. */
  pageInterval: (statement: string) => `window.pageRepeats(${js(statement)})`,
  /** A function of the page's that compiles what the script hands it by the Function of a frame of the page's. */
  pageFrameFunction: (statement: string) => `window.pageCompilesInFrame(${js(statement)})`,
} satisfies Record<string, Compiler>;

/** The page's own helpers that compile code, for the `page…` compilers. */
const PAGE_COMPILERS = `window.pageCompiles = (code) => new Function(code)();
  window.pageInserts = (code) => {
    const script = document.createElement('script');
    script.text = code;
    document.head.appendChild(script).remove();
  };
  window.pageEvals = (code) => eval(code);
  window.pageDefers = (code) => setTimeout(code, 0);
  window.pageRepeats = (code) => {
    window.pageInterval = setInterval('clearInterval(window.pageInterval);' + code, 0);
  };
  // The frame's Function, handed the top window and document (the person clicks there, the case looks there), its
  // fetch the frame's own. The frame is hidden, off the corner the person clicks.
  window.pageCompilesInFrame = (code) =>
    window.pageFrame.contentWindow.Function('window', 'document', code)(window, document);
  window.pageFrame = document.body.appendChild(Object.assign(document.createElement('iframe'), { hidden: true }))`;

/** The compilers that call a helper of the page's. */
const PAGE_HELPERS: readonly Compiler[] = [
  compilers.pageFunction,
  compilers.pageScript,
  compilers.pageEval,
  compilers.pageEvalDeep,
  compilers.pageEvalPaused,
  compilers.pageEvalLater,
  compilers.pageTimer,
  compilers.pageInterval,
  compilers.pageFrameFunction,
];

/** What the compiled listener does with the person's click, and what the next eval names as held of it. */
const acts = {
  link: (tab: LateTab, id: string) => ({ does: clickLink(`${tab.watched.origin}/${id}`), held: windowHeld(`/${id}`) }),
  open: (tab: LateTab, id: string) => ({
    does: `window.open('${tab.watched.origin}/${id}')`,
    held: windowHeld(`/${id}`),
  }),
  fetch: (tab: LateTab, id: string) => ({
    does: `fetch('${tab.watched.origin}/${id}', { mode: 'no-cors' })`,
    held: [`GET W/${id} (Fetch)`],
  }),
};

/**
 * The compiled listener `act`s on the person's click long after the eval: nothing reaches the site, and it is named.
 * Returns the click and its check, for once the eval is past.
 */
async function held(tab: LateTab, compile: Compiler, act: keyof typeof acts, id: string): Promise<() => Promise<void>> {
  const marker = `${id}Done`;
  const { does, held: heldLater } = acts[act](tab, id);
  if (PAGE_HELPERS.includes(compile)) await tab.asPage(PAGE_COMPILERS);
  await leavesListener(tab, compile(listensOnce(does, marker)));
  return async () => {
    await tab.personClicks();
    expect(await lateOutcome(tab, marker)).toEqual({ reached: [], heldLater });
  };
}

const heldCase = (name: string, compiler: keyof typeof compilers, act: keyof typeof acts): LateCase => ({
  name: `${name}: held, and named`,
  // An identifier (the page's marker is named after it) and a path of its own.
  prepare: (tab) => held(tab, compilers[compiler], act, `${compiler}${act[0]!.toUpperCase()}${act.slice(1)}`),
});

/** The cases told the script's (script-code.ts, script-compiles.ts, eval-spans.ts), by id. */
export const heldCompiled = {
  functionLink: heldCase('by new Function, named as our watch, opening a window through a link', 'newFunction', 'link'),
  evalLink: heldCase('by eval, named as a file of the page, opening a window through a link', 'eval', 'link'),
  nestedOpen: heldCase('by code the script compiled, opening a window by window.open', 'nested', 'open'),
  indirectFetch: heldCase('by an indirect eval, named nothing, fetching', 'indirectEval', 'fetch'),
  inlineLink: heldCase(
    'in an inline <script> the script inserts, opening a window through a link',
    'inlineScript',
    'link',
  ),
  nestedLink: heldCase('by code the script compiled, opening a window through a link', 'nested', 'link'),
  blobModule: heldCase(
    'in a module the script imports from a blob, opening a window through a link',
    'blobModule',
    'link',
  ),
  dataFetch: heldCase('in a <script> the script loads from a data URL, fetching', 'dataScript', 'fetch'),
  timerString: heldCase('by a timer’s string, opening a window through a link', 'timerString', 'link'),
  pageScript: heldCase(
    'in a <script> a function of the page’s inserts for the script, opening a window through a link',
    'pageScript',
    'link',
  ),
  pageFunction: heldCase(
    'by a function of the page’s the script calls, opening a window through a link',
    'pageFunction',
    'link',
  ),
  intervalFetch: heldCase('by an interval’s string, fetching', 'intervalString', 'fetch'),
  // Compiled while the evaluate runs, exempt from CSP so Trusted Types never hears it: told by order (eval-spans.ts).
  pageEvalLink: heldCase(
    'by a direct eval in a function of the page’s the script calls, opening a window through a link',
    'pageEval',
    'link',
  ),
  pageEvalFetch: heldCase(
    'by a direct eval in a function of the page’s the script calls, fetching',
    'pageEval',
    'fetch',
  ),
  pageEvalDeepFetch: heldCase(
    'by a direct eval in a function of the page’s the script calls two hundred microtasks deep, fetching',
    'pageEvalDeep',
    'fetch',
  ),
  pageEvalPausedFetch: heldCase(
    'by a direct eval in a function of the page’s the script calls after a pause of its own, fetching',
    'pageEvalPaused',
    'fetch',
  ),
  pageEvalLaterFetch: heldCase(
    'by a direct eval in a function of the page’s a timer of the script’s calls, fetching',
    'pageEvalLater',
    'fetch',
  ),
  pageTimerLink: heldCase(
    'by a timer’s string a function of the page’s sets for the script, opening a window through a link',
    'pageTimer',
    'link',
  ),
  pageIntervalFetch: heldCase(
    'by an interval’s string a function of the page’s sets for the script, fetching',
    'pageInterval',
    'fetch',
  ),
  pageFrameFunction: heldCase(
    'by the Function of a frame, in a function of the page’s the script calls, fetching',
    'pageFrameFunction',
    'fetch',
  ),
};

/** The page's own listener, compiled by `compiler` after an eval, clicks a link with a target: the window loads. */
const pageOwnCase = (name: string, compiler: keyof typeof compilers): LateCase => ({
  name: `${name}, opening a window through a link: it loads`,
  async prepare(tab) {
    const id = `page${compiler[0]!.toUpperCase()}${compiler.slice(1)}Link`;
    const marker = `${id}Linked`;
    const listener = listensOnce(clickLink(`${tab.watched.origin}/${id}`), marker);
    if (PAGE_HELPERS.includes(compilers[compiler])) await tab.asPage(PAGE_COMPILERS);
    await leavesListener(tab, compilers[compiler](listener), true);
    return async () => {
      await tab.personClicks();
      await tab.until(marker);
      await expect.poll(() => tab.watched.requests, { timeout: 10_000 }).toContain(`/${id}`);
    };
  },
});

/**
 * The page's helper evaluates the page's own listener in a task of the page's that runs while an eval awaits a timer:
 * compiled after the script's parse and before its answer, but in no task of the script's. The page waits for the
 * script's word (an interval of its own, not a timer the script set), the script for the page's.
 */
const pageEvalAwaited: LateCase = {
  name: 'a click listener its helper’s direct eval sets while an eval awaits a timer, opening a window through a link: it loads',
  async prepare(tab) {
    const id = 'pageEvalAwaitedLink';
    const marker = `${id}Linked`;
    const listener = listensOnce(clickLink(`${tab.watched.origin}/${id}`), marker);
    await tab.asPage(`${PAGE_COMPILERS};
      window.pageWaits = setInterval(() => {
        if (!window.scriptAwaits) return;
        clearInterval(window.pageWaits);
        setTimeout(() => {
          window.pageEvals(${js(listener)});
          window.pageEvaled = true;
        }, 100);
      }, 10); 0`);
    await tab.run(
      'window.scriptAwaits = true; while (!window.pageEvaled) await new Promise((r) => setTimeout(r, 200)); 0',
    );
    return async () => {
      await tab.personClicks();
      await tab.until(marker);
      await expect.poll(() => tab.watched.requests, { timeout: 10_000 }).toContain(`/${id}`);
    };
  },
};

/** The page's own compiled listeners: nothing of the script's, so their windows load. */
export const pageOwnCompiled = {
  newFunction: pageOwnCase('a click listener it compiles', 'newFunction'),
  blobModule: pageOwnCase('a click listener in a module it imports from a blob', 'blobModule'),
  timerString: pageOwnCase('a click listener a timer’s string of its own sets', 'timerString'),
  eval: pageOwnCase('a click listener its direct eval sets', 'eval'),
  intervalString: pageOwnCase('a click listener an interval’s string of its own sets', 'intervalString'),
  pageEval: pageOwnCase('a click listener its helper’s direct eval sets', 'pageEval'),
  pageEvalAwaited,
  pageTimer: pageOwnCase('a click listener a timer’s string its helper sets', 'pageTimer'),
};

// The cases both backends run with a click listener that is code the agent's script compiled (eval, new Function, an
// inline <script> it inserts, code that code compiles), under any name or none, run by the person's own click well
// after the eval: its window and its fetch are held and named (script-code.ts); the page's own compiled listener's loads.
import { expect } from 'vitest';
import { clickLink, listensOnce, personClicksAfterListening, windowHeld } from './late-gestures.js';
import { lateOutcome, type LateTab } from './late-tab.js';

/** How the script makes code of a statement, and runs it. */
type Compiler = (statement: string) => string;

const js = (text: string) => JSON.stringify(text);

export const compilers = {
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
  /** A string a timer of the script's runs. */
  timerString: (statement: string) => `setTimeout(${js(statement)}, 0)`,
  /** A function of the page's that compiles what the script hands it (as jQuery's globalEval does). */
  pageFunction: (statement: string) => `window.pageCompiles(${js(statement)})`,
} satisfies Record<string, Compiler>;

/** The page's own helper that compiles code, for `compilers.pageFunction`. */
const PAGE_COMPILES = `window.pageCompiles = (code) => new Function(code)()`;

export const compiledCases = {
  /** The compiled listener clicks a link with a target: the window is held, and named. */
  async clicksLink(tab: LateTab, compile: Compiler, id: string): Promise<void> {
    const marker = `${id}Linked`;
    if (compile === compilers.pageFunction) await tab.asPage(PAGE_COMPILES);
    await personClicksAfterListening(tab, compile(listensOnce(clickLink(`${tab.watched.origin}/${id}`), marker)));
    expect(await lateOutcome(tab, marker)).toEqual({ reached: [], heldLater: windowHeld(`/${id}`) });
  },

  /** The compiled listener opens a window by window.open: held, and named. */
  async opensWindow(tab: LateTab, compile: Compiler, id: string): Promise<void> {
    const marker = `${id}Opened`;
    await personClicksAfterListening(tab, compile(listensOnce(`window.open('${tab.watched.origin}/${id}')`, marker)));
    expect(await lateOutcome(tab, marker)).toEqual({ reached: [], heldLater: windowHeld(`/${id}`) });
  },

  /** The compiled listener fetches: held, and named. */
  async fetches(tab: LateTab, compile: Compiler, id: string): Promise<void> {
    const marker = `${id}Fetched`;
    const fetches = `fetch('${tab.watched.origin}/${id}', { mode: 'no-cors' })`;
    await personClicksAfterListening(tab, compile(listensOnce(fetches, marker)));
    expect(await lateOutcome(tab, marker)).toEqual({ reached: [], heldLater: [`GET W/${id} (Fetch)`] });
  },

  /** The page's own compiled listener, after an eval, clicks a link with a target: the window loads. */
  async pageOwn(tab: LateTab, compile: Compiler, id: string): Promise<void> {
    const marker = `${id}Linked`;
    await personClicksAfterListening(tab, compile(listensOnce(clickLink(`${tab.watched.origin}/${id}`), marker)), true);
    await tab.until(marker);
    await expect.poll(() => tab.watched.requests, { timeout: 10_000 }).toContain(`/${id}`);
  },
};

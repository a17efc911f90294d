// The agent's own click, after its eval, on real Chromium: our watch passes over a trusted click (gesture-watch.ts), and
// still a click listener the script left that opens a window with that click is held and named.
import { expect, it } from 'vitest';
import { click } from '../../shared/engine/ops/pointer.js';
import { ctx } from '../support/engine-suite.js';
import { pastTheEval } from '../support/late-gestures.js';
import { lateOutcome } from '../support/late-tab.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const engine = watchedEngineTab({ popups: true });

/** The page's own button `#id`; the script leaves a one-time click listener on it that runs `then` and sets `marker`. */
async function scriptListens(id: string, then: string, marker: string, compiled = false): Promise<void> {
  await engine.asPage(`document.body.append(Object.assign(document.createElement('button'), { id: '${id}',
    textContent: '${id}' })); 0`);
  const body = `${then}; window.${marker} = true;`;
  // `compiled`: the listener is code the script compiles (new Function), named as our watch's is.
  const listener = compiled
    ? `new Function(${JSON.stringify(`${body}\n//# sourceURL=chrome-mcp-gestures://watch`)})`
    : `() => { ${body} }`;
  await engine.run(`document.getElementById('${id}').addEventListener('click', ${listener}, { once: true }); 0`);
}

// A window a link with a target opens names no stack: only the listener's pause tells it is the script's.
async function linkWithAgentsClick(id: string, compiled: boolean): Promise<void> {
  const link = `const a = Object.assign(document.createElement('a'), { href: '${engine.watched.origin}/${id}',
    target: '_blank' }); document.body.append(a); a.click()`;
  await scriptListens(id, link, `${id.replace('-', '_')}Linked`, compiled);
  await pastTheEval();
  await click(engine.page, { selector: `#${id}` }, ctx);
  expect(await lateOutcome(engine, `${id.replace('-', '_')}Linked`)).toEqual({
    reached: [],
    heldLater: [expect.stringMatching(new RegExp(`^(GET )?W/${id} \\(navigation`))],
  });
}

it(
  'a listener of the script’s opening a window through a link with the agent’s click: held, and named',
  () => linkWithAgentsClick('agent-link', false),
  60_000,
);

// Code the script compiles names itself as it likes: Debugger.scriptParsed's creator stack tells it is the script's.
it(
  'a listener the script compiles, named as our watch, opening a window with the agent’s click: held',
  () => linkWithAgentsClick('compiled-link', true),
  60_000,
);

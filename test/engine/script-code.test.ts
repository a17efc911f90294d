// ScriptCode's knowledge of the agent's scripts, fed the Debugger events Chromium sends: an id V8 parses again names
// another script, in a new renderer process whose ids start over (Chromium 156: a tab that left for another site and
// came back), and the page's own code there is not the script's.
import { describe, expect, it } from 'vitest';
import type { Cdp } from '../../shared/engine/cdp.js';
import { ScriptCode } from '../../shared/engine/script-code.js';
import { SCRIPT_TAG } from '../../shared/engine/script-initiator.js';

const parsed = (scriptId: string, url: string, creator?: { scriptId: string; url: string }) => ({
  method: 'Debugger.scriptParsed',
  params: {
    scriptId,
    url,
    ...(creator
      ? { stackTrace: { callFrames: [{ functionName: '', lineNumber: 0, columnNumber: 0, ...creator }] } }
      : {}),
  },
});
const calledFrom = (scriptId: string) => ({
  type: 'script' as const,
  stack: { callFrames: [{ functionName: '', url: '', scriptId, lineNumber: 0, columnNumber: 0 }] },
});

// No eval is sent here, so no end mark either (eval-spans.ts).
const noCdp = {} as Cdp;

describe('the script’s code by its ids', () => {
  it('knows what the script compiled, and forgets an id the next process gives to the page’s own code', () => {
    const code = new ScriptCode(noCdp, () => false);
    code.onEvent(parsed('20', `${SCRIPT_TAG}tag/1`));
    code.onEvent(parsed('21', '', { scriptId: '20', url: `${SCRIPT_TAG}tag/1` }));
    expect(code.initiator(undefined, calledFrom('21'))).toBe(true);

    // The page went to a new process: its own evaluated code takes id 21 there.
    code.onEvent(parsed('21', ''));
    expect(code.initiator(undefined, calledFrom('21'))).toBe(false);
    // Another session's id 21 was never the script's either.
    expect(code.initiator('child', calledFrom('21'))).toBe(false);
  });

  it('keeps an id the script’s code compiles again in the new process', () => {
    const code = new ScriptCode(noCdp, () => false);
    code.onEvent(parsed('30', `${SCRIPT_TAG}tag/2`));
    code.onEvent(parsed('30', `${SCRIPT_TAG}tag/3`));
    expect(code.initiator(undefined, calledFrom('30'))).toBe(true);
  });
});

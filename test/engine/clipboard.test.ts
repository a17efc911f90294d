// Clipboard keys in the fallback engine: paste, copy and cut combos are refused (CLIPBOARD_REFUSED) on a site allowed
// only to act, in press and in batch, before any key reaches the page, judged by the frame the keys land in; a
// trusted site gets them, and other chords pass on an act site.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import type { Policy } from '../../shared/policy/policy.js';
import type { Operation, OperationResult } from '../../shared/protocol/operations.js';
import { ACT, CLIPBOARD_COMBOS, keysSeen, TOP_TRUSTED, TRUSTED } from '../support/clipboard-keys.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';

const suite = useEngineSuite();
let policy: Policy = ACT;
let executor: EngineExecutor;

beforeAll(() => {
  executor = createEngineExecutor(suite.browser.host, { tag: 'cb', policy: () => policy });
});
afterAll(() => executor?.dispose());
beforeEach(() => {
  policy = ACT;
});

const run = (op: Operation, args: Record<string, unknown> = {}): Promise<OperationResult> =>
  executor.run(op, args, ctx);

describe('clipboard keys', () => {
  it('are refused on a site allowed to act, in press and in batch, and no key of them reaches the page', async () => {
    await run('tab_new', { url: suite.server.url('clipboard-keys.html') });
    for (const keys of CLIPBOARD_COMBOS) {
      const error = await failure(run('press', { selector: '#name', keys }));
      expect(error.code, `${keys}: ${error.message}`).toBe('CLIPBOARD_REFUSED');
      expect(error.message).toMatch(
        /was not sent: it would read or overwrite the person's clipboard, and 127\.0\.0\.1:\d+ is not trusted\./,
      );
    }
    // Focus on the field, then the keys alone: they land where focus is, judged there.
    await run('click', { selector: '#name' });
    expect((await failure(run('press', { keys: 'Control+V' }))).code).toBe('CLIPBOARD_REFUSED');
    const batch = await failure(
      run('batch', {
        steps: [
          { tool: 'type', args: { selector: '#name', text: 'x' } },
          { tool: 'press', args: { keys: 'Shift+Insert' } },
        ],
      }),
    );
    expect(batch.data?.['code']).toBe('CLIPBOARD_REFUSED');
    // Other chords still go out.
    expect((await run('press', { selector: '#name', keys: 'Control+A' })).text).toBe(
      'pressed Control+A in textbox "Name"',
    );
    expect(await keysSeen(run)).toEqual(['Control+a']);
  });

  it('are sent on a trusted site', async () => {
    policy = TRUSTED;
    await run('tab_new', { url: suite.server.url('clipboard-keys.html') });
    for (const keys of ['Control+V', 'Shift+Insert', 'Meta+C'])
      expect((await run('press', { selector: '#name', keys })).text).toBe(`pressed ${keys} in textbox "Name"`);
    expect(await keysSeen(run)).toEqual(['Control+v', 'Shift+Insert', 'Meta+c']);
  });

  it('are judged by the frame they land in: refused in an act-only frame of a trusted page', async () => {
    policy = TOP_TRUSTED;
    await run('tab_new', { url: suite.server.url('frames.html') });
    const outline = (await run('snapshot')).text;
    const ref = /iframe "Cross origin"[^\n]*\n(?:.*\n)*?\s+- textbox "Child input" \[ref=(f\d+e\d+)\]/.exec(
      outline,
    )?.[1];
    expect(ref, outline).toBeDefined();
    const error = await failure(run('press', { ref, keys: 'Control+V' }));
    expect(error.code).toBe('CLIPBOARD_REFUSED');
    expect(error.message).toMatch(/frame f\d+ \(localhost:\d+\) is not trusted/);
    // Focus left in that frame: keys with no target go there, and are refused there.
    await run('click', { ref });
    expect((await failure(run('press', { keys: 'Meta+V' }))).code).toBe('CLIPBOARD_REFUSED');
    // The top page itself is trusted.
    expect((await run('press', { selector: '#top', keys: 'Control+C' })).text).toContain('pressed Control+C');
  });
});

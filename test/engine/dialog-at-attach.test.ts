// A dialog already open when the engine attaches to a tab, in the launched browser: Chrome tells a new debugger
// nothing of it and holds every renderer command until it closes, so before this each first call on the tab hung.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import type { Operation, OperationResult } from '../../shared/protocol/operations.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { ASKS_ON_LOAD } from '../support/dialog-scenarios.js';
import { TEST_POLICY } from '../support/test-policy.js';

const suite = useEngineSuite();
let executor: EngineExecutor;

beforeAll(() => {
  suite.server.serve('/asks-early', { body: ASKS_ON_LOAD });
  executor = createEngineExecutor(suite.browser.host, { tag: 'tq', policy: () => TEST_POLICY });
});
afterAll(() => {
  executor?.dispose();
});

// A hang fails here, well inside vitest's own test timeout.
const CALL_MS = 15_000;

function run(op: Operation, args: Record<string, unknown> = {}): Promise<OperationResult> {
  return Promise.race([
    executor.run(op, args, ctx),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${op} hung`)), CALL_MS)),
  ]);
}

/** A tab no session of the engine's is attached to, showing the page's confirm; answers its engine handle. */
async function tabAskingAlready(path: string): Promise<{ handle: string; targetId: string }> {
  const { connection } = suite.browser.browser;
  const url = suite.server.url(path);
  const { targetId } = await connection.send<{ targetId: string }>('Target.createTarget', { url, newWindow: true });
  const deadline = Date.now() + CALL_MS;
  while (!(await suite.browser.host.list()).some((tab) => tab.id === targetId && tab.title === 'asking')) {
    if (Date.now() > deadline) throw new Error('the page never asked');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const used = await run('tab_use', { url });
  return { handle: String(used.data?.['tab']), targetId };
}

describe('a dialog open before the engine attached', () => {
  it('is named by the first call at once, and closed by dismissing it, which reloads the page', async () => {
    const { handle } = await tabAskingAlready('asks-early?a');
    const refused = await failure(run('snapshot', { tab: handle }));
    expect(refused.code).toBe('DIALOG_OPEN');
    expect(refused.message).toMatch(/^The page shows a dialog that opened before Chrome MCP attached/);
    expect(refused.next).toContain('dialog {accept: false}');
    expect((await run('tabs')).text).toContain(`${handle} "asking"`);
    expect((await run('tabs')).text).toMatch(/— shows a dialog that opened before Chrome MCP attached/);

    // Chrome gives a debugger that came later no way to press OK.
    const accepted = await failure(run('dialog', { tab: handle, accept: true }));
    expect(accepted.code).toBe('DIALOG_UNREACHABLE');
    const dismissed = await run('dialog', { tab: handle, accept: false });
    expect(dismissed.text).toMatch(
      /^dismissed a dialog that opened before Chrome MCP attached .*, by reloading the page$/,
    );
    expect((await run('snapshot', { tab: handle })).text).toContain('button "go"');
  });

  it('serves the tab again once the dialog closed some other way meanwhile', async () => {
    const { handle, targetId } = await tabAskingAlready('asks-early?b');
    expect((await failure(run('snapshot', { tab: handle }))).code).toBe('DIALOG_OPEN');
    // Another client closes it (in the person's Chrome, the person): a reload is what CDP allows.
    const { connection } = suite.browser.browser;
    const { sessionId } = await connection.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId,
      flatten: true,
    });
    await connection.send('Page.reload', {}, sessionId);
    await connection.send('Target.detachFromTarget', { sessionId });
    const deadline = Date.now() + CALL_MS;
    let text = '';
    while (Date.now() < deadline) {
      const result = await executor.run('snapshot', { tab: handle }, ctx).catch((error: Error) => error);
      if (!(result instanceof Error)) {
        text = result.text;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(text).toContain('button "go"');
  });

  it('answers a closed tab as closed, never hanging', async () => {
    const { handle, targetId } = await tabAskingAlready('asks-early?c');
    expect((await failure(run('snapshot', { tab: handle }))).code).toBe('DIALOG_OPEN');
    await suite.browser.browser.connection.send('Target.closeTarget', { targetId });
    const gone = await failure(run('snapshot', { tab: handle }));
    expect(gone.code).toBe('TAB_NOT_FOUND');
    expect((await failure(run('dialog', { tab: handle, accept: false }))).code).toBe('TAB_NOT_FOUND');
  });
});

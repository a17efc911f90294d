// The engine executor over a real launched browser: tab handles and ownership, reuse rules, stale handles,
// batches that stop at the failing step, and acts that report a navigation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import type { Operation, OperationResult } from '../../shared/protocol/operations.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { TEST_POLICY } from '../support/test-policy.js';

const suite = useEngineSuite();
let executor: EngineExecutor;

beforeAll(() => {
  executor = createEngineExecutor(suite.browser.host, { tag: 'ta', policy: () => TEST_POLICY });
});
// Runs before the suite closes the browser (afterAll hooks run in reverse order).
afterAll(() => {
  executor?.dispose();
});

function run(op: Operation, args: Record<string, unknown> = {}, context = ctx): Promise<OperationResult> {
  return executor.run(op, args, context);
}

/** The handle an `opened …` / `reused …` answer names. */
function handleOf(result: OperationResult): string {
  return String(result.data?.['tab']);
}

describe('engine executor: tabs', () => {
  it("adopts the browser's one blank tab on first use, current but not owned", async () => {
    expect((await run('snapshot')).text).toBe('Page "" about:blank');
    expect((await run('tabs')).text).toBe('*  ta.1 "" about:blank');
  });

  it('reads and acts on a blank tab, but runs no script there: from a blank document a script could still send requests', async () => {
    const refused = await failure(run('eval', { expression: '1' }));
    expect(refused.code).toBe('POLICY_DENIED');
    expect(refused.next).toContain('Navigate to an http(s) page first');
  });

  it('opens a tab in the background, owned and current, answering where it landed', async () => {
    const opened = await run('tab_new', { url: suite.server.url('nav-basic.html') });
    expect(opened.text).toBe(`opened ta.2 ${suite.server.url('nav-basic.html')} "Nav basic"`);
    const lines = (await run('tabs')).text.split('\n');
    expect(lines).toContain(`*+ ta.2 "Nav basic" ${suite.server.url('nav-basic.html')}`);
    expect(lines).toContain('   ta.1 "" about:blank');
    const front = (await suite.browser.host.list()).find((tab) => tab.active);
    expect(front?.url).toBe('about:blank');
  });

  it('reuses a tab by exact URL, then same path, then same origin, and opens one for a new site', async () => {
    const basic = handleOf(await run('tab_use', { url: suite.server.url('nav-basic.html') }));
    expect(basic).toBe('ta.2');
    const second = handleOf(await run('tab_new', { url: suite.server.url('nav-second.html') }));

    const exact = await run('tab_use', { url: suite.server.url('nav-basic.html') });
    expect(exact.text).toMatch(new RegExp(`^reused ${basic} \\(exact\\)`));
    expect((await run('tab_use', { url: suite.server.url('nav-second.html') })).text).toMatch(
      new RegExp(`^reused ${second} \\(exact\\)`),
    );
    expect((await run('tab_use', { url: suite.server.url('nav-basic.html?other=1') })).text).toMatch(
      new RegExp(`^reused ${basic} \\(same path\\)`),
    );
    // Same origin: the current tab wins among equals.
    expect((await run('tab_use', { url: suite.server.url('wait-page.html') })).text).toMatch(
      new RegExp(`^reused ${basic} \\(same origin\\)`),
    );

    const elsewhere = await run('tab_use', { url: `${suite.server.crossOrigin}/nav-second.html` });
    expect(elsewhere.text).toMatch(/^opened ta\.\d+ http:\/\/localhost:\d+\/nav-second\.html "Nav second"$/);
    expect(elsewhere.data).toMatchObject({ reused: false });
  });

  it('runs page operations on the named tab, which becomes current', async () => {
    const first = handleOf(await run('tab_new', { url: suite.server.url('nav-basic.html') }));
    const second = handleOf(await run('tab_new', { url: suite.server.url('nav-second.html') }));
    expect((await run('eval', { expression: 'document.title' })).text).toBe('"Nav second"');
    expect((await run('eval', { expression: 'document.title', tab: first })).text).toBe('"Nav basic"');
    expect((await run('eval', { expression: 'document.title' })).text).toBe('"Nav basic"');
    await run('tab_select', { tab: second });
    expect((await run('eval', { expression: 'document.title' })).text).toBe('"Nav second"');
  });

  it('closes only tabs it opened, the current one by default', async () => {
    expect((await failure(run('tab_close', { tab: 'ta.1' }))).code).toBe('NOT_OWNED');
    const mine = handleOf(await run('tab_new', {}));
    expect((await run('tab_close')).text).toBe(`closed ${mine}`);
    expect((await failure(run('eval', { expression: '1', tab: mine }))).code).toBe('TAB_NOT_FOUND');
    expect((await failure(run('tab_close', { tab: mine }))).code).toBe('TAB_NOT_FOUND');
  });

  it('says when the current tab was closed behind its back, then falls back to the active tab', async () => {
    const before = new Set((await suite.browser.host.list()).map((tab) => tab.id));
    await run('tab_new', { url: suite.server.url('nav-second.html') });
    const added = (await suite.browser.host.list()).find((tab) => !before.has(tab.id))!;
    await suite.browser.host.close(added.id);
    const gone = await failure(run('eval', { expression: '1' }));
    expect(gone.code).toBe('TAB_NOT_FOUND');
    expect(gone.message).toContain('(the current tab) was closed');
    expect((await run('snapshot')).text).toBe('Page "" about:blank');
  });

  it('tells a handle of another session (STALE_TAB) from an unknown one (TAB_NOT_FOUND)', async () => {
    const other = createEngineExecutor(suite.browser.host, { tag: 'tb', policy: () => TEST_POLICY });
    try {
      const stale = await failure(other.run('eval', { expression: '1', tab: 'ta.2' }, ctx));
      expect(stale.code).toBe('STALE_TAB');
      expect(stale.message).toContain('start with tb');
    } finally {
      other.dispose();
    }
    expect((await failure(run('eval', { expression: '1', tab: 'ta.999' }))).code).toBe('TAB_NOT_FOUND');
    expect((await failure(run('tab_select', { tab: 'nonsense' }))).code).toBe('TAB_NOT_FOUND');
  });
});

describe('engine executor: acts and batches', () => {
  let tab: string;

  beforeAll(async () => {
    tab = handleOf(await run('tab_new', { url: suite.server.url('nav-basic.html') }));
  });

  it('appends the new URL when an act navigates the tab, and nothing when it does not', async () => {
    await run('navigate', { url: suite.server.url('nav-basic.html'), tab });
    const moved = await run('click', { selector: '#next', tab });
    expect(moved.text).toMatch(new RegExp(` → ${suite.server.url('nav-second.html').replace(/[.?]/g, '\\$&')}$`));
    await run('navigate', { url: suite.server.url('nav-basic.html'), tab });
    expect((await run('click', { selector: '#top', tab })).text).not.toContain('→');
  });

  it('answers the new snapshot after an act that asked for it, refs usable at once', async () => {
    await run('navigate', { url: suite.server.url('nav-basic.html'), tab });
    const result = await run('click', { selector: '#next', snapshot: true, tab });
    const [line, ...outline] = result.text.split('\n');
    expect(line).toContain(`→ ${suite.server.url('nav-second.html')}`);
    expect(outline[0]).toBe(`Page "Nav second" ${suite.server.url('nav-second.html')}`);
    expect(outline.join('\n')).toContain('heading "Nav second"');
    const ref = /link "Back to basic" \[ref=(\w+)\]/.exec(result.text)?.[1];
    expect((await run('click', { ref, tab })).text.split('\n')).toEqual([
      `clicked link "Back to basic" → ${suite.server.url('nav-basic.html')}`,
    ]);
  });

  it('runs steps in order in one call, with progress per step', async () => {
    const messages: string[] = [];
    const result = await run(
      'batch',
      {
        tab,
        steps: [
          { tool: 'navigate', args: { url: suite.server.url('nav-basic.html') } },
          { tool: 'eval', args: { expression: 'document.title' } },
          { tool: 'wait_for', args: { text: 'Nav basic' } },
        ],
      },
      { progress: (message) => messages.push(message) },
    );
    expect(result.text.split('\n')).toEqual([
      `1 navigate: ${suite.server.url('nav-basic.html')} "Nav basic"`,
      '2 eval: "Nav basic"',
      expect.stringMatching(/^3 wait_for: matched: text "Nav basic"/),
    ]);
    expect(messages.filter((message) => message.startsWith('step '))).toEqual([
      'step 1/3: navigate',
      'step 2/3: eval',
      'step 3/3: wait_for',
    ]);
  });

  it('stops at the first failing step, names it, and runs nothing after it', async () => {
    await run('navigate', { url: suite.server.url('nav-basic.html'), tab });
    const error = await failure(
      run('batch', {
        tab,
        steps: [
          { tool: 'eval', args: { expression: 'window.s1 = 1' } },
          { tool: 'eval', args: { expression: 'window.s2 = 2' } },
          { tool: 'click', args: { selector: '#missing' } },
          { tool: 'eval', args: { expression: 'window.s4 = 4' } },
        ],
      }),
    );
    expect(error.code).toBe('BATCH_STEP_FAILED');
    expect(error.message).toMatch(/^step 3 \(click\): NOT_FOUND: .*; steps 1-2 done\.$/);
    expect(error.data).toMatchObject({ step: 3, code: 'NOT_FOUND' });
    expect((await run('eval', { expression: '[window.s1, window.s2, typeof window.s4]', tab })).text).toBe(
      '[1,2,"undefined"]',
    );
  });

  it('validates every step before running any', async () => {
    await run('navigate', { url: suite.server.url('nav-basic.html'), tab });
    const bad = await failure(
      run('batch', {
        tab,
        steps: [
          { tool: 'eval', args: { expression: 'window.v = 1' } },
          { tool: 'click', args: { bogus: true } },
        ],
      }),
    );
    expect(bad.code).toBe('BAD_ARGS');
    expect(bad.message).toMatch(/^step 2 \(click\):/);
    expect((await run('eval', { expression: 'typeof window.v', tab })).text).toBe('"undefined"');
    for (const tool of ['batch', 'status', 'no_such_tool']) {
      expect((await failure(run('batch', { steps: [{ tool, args: {} }] }))).code).toBe('BAD_ARGS');
    }
  });

  it('gives the batch tab to steps that name none', async () => {
    const other = handleOf(await run('tab_new', { url: suite.server.url('nav-second.html') }));
    const result = await run('batch', {
      tab,
      steps: [
        { tool: 'eval', args: { expression: 'document.title' } },
        { tool: 'eval', args: { expression: 'document.title', tab: other } },
      ],
    });
    expect(result.text).toBe('1 eval: "Nav basic"\n2 eval: "Nav second"');
  });

  it('stops between steps when the call is cancelled', async () => {
    await run('navigate', { url: suite.server.url('nav-basic.html'), tab });
    const controller = new AbortController();
    const stopped = await failure(
      run(
        'batch',
        {
          tab,
          steps: [
            { tool: 'eval', args: { expression: 'window.c1 = 1' } },
            { tool: 'eval', args: { expression: 'window.c2 = 2' } },
          ],
        },
        { progress: () => controller.abort(), signal: controller.signal },
      ),
    );
    expect(stopped.code).toBe('STOPPED');
    expect(stopped.message).toContain('before step 2 (eval); step 1 done');
    expect((await run('eval', { expression: '[window.c1, typeof window.c2]', tab })).text).toBe('[1,"undefined"]');
  });
});

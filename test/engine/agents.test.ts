// Several agents (MCP sessions) on one engine over a real browser: each has its own current tab, adopts the active tab
// only when no other agent is on it, reuses no other agent's tab, closes its own, frees its tab when its session ends,
// and hears when another agent closed the tab it was on. Each test names its own agents as the live ones, so the
// earlier tests' agents are gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import type { Operation, OperationResult } from '../../shared/protocol/operations.js';
import { failure, useEngineSuite } from '../support/engine-suite.js';
import { TEST_POLICY } from '../support/test-policy.js';

const suite = useEngineSuite();
let executor: EngineExecutor;

beforeAll(() => {
  executor = createEngineExecutor(suite.browser.host, { tag: 'tm', policy: () => TEST_POLICY });
});
afterAll(() => {
  executor?.dispose();
});

/** Runs as agent `id`, with `live` the sessions open at the time. */
function as(id: string, live: string[]) {
  return (op: Operation, args: Record<string, unknown> = {}): Promise<OperationResult> =>
    executor.run(op, args, { progress: () => undefined, agent: { id, live } });
}

interface ListedTab {
  tab: string;
  url: string;
  current: boolean;
  owned: boolean;
}

async function listed(run: ReturnType<typeof as>): Promise<ListedTab[]> {
  return (await run('tabs')).data?.['tabs'] as ListedTab[];
}

async function currentOf(run: ReturnType<typeof as>): Promise<ListedTab | undefined> {
  return (await listed(run)).find((tab) => tab.current);
}

describe('agents on one engine', () => {
  it('gives each its own current tab: the first adopts the active tab, the next one opens a tab of its own', async () => {
    const [a, b] = [as('1', ['1', '2']), as('2', ['1', '2'])];
    await a('navigate', { url: suite.server.url('nav-basic.html') });
    await b('navigate', { url: suite.server.url('nav-second.html') });
    expect((await suite.browser.host.list()).find((tab) => tab.active)?.url).toBe(suite.server.url('nav-basic.html'));

    expect((await a('eval', { expression: 'document.title' })).text).toBe('"Nav basic"');
    expect((await b('eval', { expression: 'document.title' })).text).toBe('"Nav second"');
    expect((await a('snapshot')).text).toMatch(/^Page "Nav basic"/);
    expect((await b('snapshot')).text).toMatch(/^Page "Nav second"/);

    const [mine, theirs] = [await currentOf(a), await currentOf(b)];
    expect(mine).toMatchObject({ url: suite.server.url('nav-basic.html'), owned: false });
    expect(theirs).toMatchObject({ url: suite.server.url('nav-second.html'), owned: true });
    expect((await a('tabs')).text.split('\n').filter((line) => line.startsWith('*'))).toEqual([
      expect.stringContaining(`${mine!.tab} "Nav basic"`),
    ]);
    expect((await b('tabs')).text.split('\n').filter((line) => line.startsWith('*'))).toEqual([
      expect.stringContaining(`${theirs!.tab} "Nav second"`),
    ]);

    // `status` shows an agent its own tab, and the panel (no agent) the tab an agent used last.
    expect((await executor.describe({ id: '1', live: ['1', '2'] })).current?.id).toBe(mine!.tab);
    expect((await executor.describe({ id: '2', live: ['1', '2'] })).current?.id).toBe(theirs!.tab);
    expect((await executor.describe()).current?.id).toBe(theirs!.tab);
    await a('get_text');
    expect((await executor.describe()).current?.id).toBe(mine!.tab);
  });

  it('never gives two agents starting at once the same tab', async () => {
    const [c, d] = [as('3', ['3', '4']), as('4', ['3', '4'])];
    await Promise.all([
      c('navigate', { url: suite.server.url('nav-basic.html') }),
      d('navigate', { url: suite.server.url('nav-second.html') }),
    ]);
    expect((await c('eval', { expression: 'document.title' })).text).toBe('"Nav basic"');
    expect((await d('eval', { expression: 'document.title' })).text).toBe('"Nav second"');
    expect((await currentOf(c))?.tab).not.toBe((await currentOf(d))?.tab);
  });

  it("closes the caller's own current tab when tab_close names none", async () => {
    const [e, f] = [as('5', ['5', '6']), as('6', ['5', '6'])];
    const ours = String((await e('tab_new', { url: suite.server.url('nav-basic.html') })).data?.['tab']);
    const theirs = String((await f('tab_new', { url: suite.server.url('nav-second.html') })).data?.['tab']);
    expect((await e('tab_close')).text).toBe(`closed ${ours}`);
    expect((await f('eval', { expression: 'document.title' })).text).toBe('"Nav second"');
    expect((await listed(f)).map((tab) => tab.tab)).not.toContain(ours);
    expect((await f('tab_close')).text).toBe(`closed ${theirs}`);
  });

  it('frees the tab of an agent whose session ended: a new agent adopts it', async () => {
    const [g, h] = [as('7', ['7', '8']), as('8', ['7', '8'])];
    await g('navigate', { url: suite.server.url('nav-basic.html') });
    await h('navigate', { url: suite.server.url('nav-second.html') });
    const freed = (await currentOf(g))!.tab;
    // Agent 7's session ended: agent 9 is on the tab 7 was on, agent 8 stays on its own.
    const i = as('9', ['8', '9']);
    await i('navigate', { url: suite.server.url('wait-page.html') });
    expect((await currentOf(i))?.tab).toBe(freed);
    expect((await h('eval', { expression: 'document.title' })).text).toBe('"Nav second"');
  });

  it('reuses no tab another agent is on: tab_use opens one of its own', async () => {
    const [l, m] = [as('12', ['12', '13']), as('13', ['12', '13'])];
    // The only origin no earlier test used: a free tab on the same origin would be reused as `same origin`.
    const url = `${suite.server.crossOrigin}/nav-basic.html`;
    const ours = String((await l('tab_new', { url })).data?.['tab']);
    const theirs = await m('tab_use', { url });
    expect(theirs.data).toMatchObject({ reused: false });
    expect(theirs.data?.['tab']).not.toBe(ours);
    // Once agent 12 is gone, its tab is free to reuse; agent 13's is still not.
    expect((await as('14', ['13', '14'])('tab_use', { url })).data).toMatchObject({ tab: ours, reused: true });
  });

  it('tells an agent once that another closed the tab it was on, then adopts afresh', async () => {
    const [j, k] = [as('10', ['10', '11']), as('11', ['10', '11'])];
    const shared = String((await j('tab_new', { url: suite.server.url('nav-second.html') })).data?.['tab']);
    await k('tab_select', { tab: shared });
    expect((await k('tab_close')).text).toBe(`closed ${shared}`);

    const gone = await failure(j('eval', { expression: 'document.title' }));
    expect(gone.code).toBe('TAB_NOT_FOUND');
    expect(gone.message).toBe(`Tab ${shared} (the current tab) was closed.`);
    expect(gone.next).toBe('Call `tab_use` or `tabs` to pick a tab.');
    expect((await j('snapshot')).text).toMatch(/^Page /);
    expect((await currentOf(j))?.tab).not.toBe(shared);
  });
});

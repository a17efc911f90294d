// Two agents (MCP sessions on one core) through the real bridge and the real extension: each gets its own current tab,
// and both still have theirs after the worker was stopped and came back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Operation, OperationResult } from '../../shared/protocol/operations.js';
import { type ChromeTab, startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';

let linked: LinkedExtension;

beforeAll(async () => {
  linked = await startLinkedExtension();
});

afterAll(async () => {
  await linked?.close();
});

function as(id: string) {
  return (op: Operation, args: Record<string, unknown> = {}): Promise<OperationResult> =>
    linked.run(op, args, { agent: { id, live: ['1', '2'] } });
}

async function currentUrl(run: ReturnType<typeof as>): Promise<string | undefined> {
  const tabs = (await run('tabs')).data?.['tabs'] as Array<{ url: string; current: boolean }>;
  return tabs.find((tab) => tab.current)?.url;
}

describe('agents through the extension', () => {
  it('gives each agent its own current tab, and keeps them across a worker restart', async () => {
    const [a, b] = [as('1'), as('2')];
    const [basic, second] = [linked.fixtures.url('nav-basic.html'), linked.fixtures.url('nav-second.html')];
    await a('navigate', { url: basic });
    await b('navigate', { url: second });
    const tabs = await linked.browser.evaluate<ChromeTab[]>('chrome.tabs.query({})');
    // The first agent adopted the person's active tab; the second got one of its own, in the background.
    expect(tabs.find((tab) => tab.url === basic)?.active).toBe(true);
    expect(tabs.find((tab) => tab.url === second)?.active).toBe(false);
    expect((await a('eval', { expression: 'document.title' })).text).toBe('"Nav basic"');
    expect((await b('eval', { expression: 'document.title' })).text).toBe('"Nav second"');

    const relinked = linked.nextLink();
    await linked.browser.stopWorker();
    await relinked;
    expect((await b('eval', { expression: 'document.title' })).text).toBe('"Nav second"');
    expect((await a('eval', { expression: 'document.title' })).text).toBe('"Nav basic"');
    expect([await currentUrl(a), await currentUrl(b)]).toEqual([basic, second]);
    expect((await b('tab_close')).text).toMatch(/^closed x\w+\.\d+$/);
  });
});

// The person's Stop from the driven tab on real Chromium: a real Esc halts a running batch within one step, a page's
// synthetic Escape and the agent's own `press Escape` do not, and the pill shows to the person only, never to our reads.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import type { Operation, OperationResult } from '../../shared/protocol/operations.js';
import { failure, useEngineSuite } from '../support/engine-suite.js';
import { escapeAfter, personAt, slowClicks, type Person } from '../support/person.js';
import { readPng } from '../support/png.js';
import { TEST_POLICY } from '../support/test-policy.js';

const suite = useEngineSuite();
let executor: EngineExecutor;
const stops: string[] = [];
// Stands in for the core's hub: a stop aborts the call in flight, as the hub's stop signal does.
let hub = new AbortController();

beforeAll(() => {
  executor = createEngineExecutor(suite.browser.host, {
    tag: 'ps',
    policy: () => TEST_POLICY,
    onPersonStop: (where) => {
      stops.push(where);
      hub.abort();
    },
  });
});
afterAll(() => {
  executor?.dispose();
});
beforeEach(() => {
  stops.length = 0;
  hub = new AbortController();
});

function run(op: Operation, args: Record<string, unknown> = {}): Promise<OperationResult> {
  return executor.run(op, args, { progress: () => undefined, signal: hub.signal });
}

/** Opens the counter page in a tab of its own (the agent's current one) and sits the person in front of it. */
async function openCounter(name: string): Promise<{ tab: string; person: Person }> {
  const url = suite.server.url(`stop-counter.html?${name}`);
  const opened = await run('tab_new', { url });
  const target = (await suite.browser.host.list()).find((tab) => tab.url === url);
  if (!target) throw new Error('the counter tab is not listed');
  return { tab: String(opened.data?.['tab']), person: await personAt(suite.browser.browser.connection, target.id) };
}

describe('Esc in the driven tab', () => {
  it('stops a 20-step batch within one step of the key, and says where', async () => {
    const { tab, person } = await openCounter('real');
    const stopped = await escapeAfter(person, 2, run('batch', { steps: slowClicks(10) }));
    expect(stopped.code).toBe('STOPPED');
    const real = stopped.seen.filter((seen) => seen.trusted);
    expect(real).toHaveLength(1);
    // The page counted the clicks done when the key reached it: at most the step in flight ran after.
    expect(stopped.done).toBeLessThanOrEqual(real[0]!.clicks + 1);
    expect(stops).toEqual([`tab ${tab}`]);
  });

  it('ignores an Escape the page dispatches itself (not trusted)', async () => {
    const { person } = await openCounter('synthetic');
    // Armed first, so the page's fake key comes while the agent is acting.
    await run('snapshot');
    const stopped = await escapeAfter(
      person,
      1,
      run('batch', { steps: slowClicks(10, [{ tool: 'click', args: { selector: '#fake' } }]) }),
    );
    expect(stopped.seen.filter((seen) => !seen.trusted)).toHaveLength(2);
    // Only the person's real key stopped it: the two fake ones before it did not.
    expect(stops).toHaveLength(1);
    expect(stopped.code).toBe('STOPPED');
  });

  it("ignores the agent's own `press Escape`, and still hears the person's after it", async () => {
    const { person } = await openCounter('own');
    await run('snapshot');
    const stopped = await escapeAfter(
      person,
      1,
      run('batch', { steps: slowClicks(10, [{ tool: 'press', args: { keys: 'Escape' } }]) }),
    );
    // Both keys reached the page as real keys: the agent's first, then the person's.
    expect(stopped.seen).toEqual([
      { trusted: true, clicks: 0 },
      { trusted: true, clicks: expect.any(Number) },
    ]);
    expect(stops).toHaveLength(1);
    expect(stopped.code).toBe('STOPPED');
  });

  it('does nothing while the agent is not acting', async () => {
    const { person } = await openCounter('idle');
    await person.pressEscape();
    // A sync point: the person's next Esc while the agent acts is heard, and it is the only one.
    const stopped = await escapeAfter(person, 1, run('batch', { steps: slowClicks(10) }));
    expect(stopped.seen.filter((seen) => seen.trusted)).toHaveLength(2);
    expect(stops).toHaveLength(1);
  });
});

const HOST = 'document.querySelector("chrome-mcp-indicator")';

/** Runs `look` while an operation is in flight (a long wait, stopped after), once the page shows the pill. */
async function whileActing<T>(person: Person, look: () => Promise<T>): Promise<T> {
  const holding = failure(run('wait_for', { selector: '#never', timeout: 20_000 }));
  try {
    await vi.waitFor(
      async () => expect(await person.page<number>(`${HOST}?.getBoundingClientRect().width ?? 0`)).toBeGreaterThan(0),
      { timeout: 5_000 },
    );
    return await look();
  } finally {
    hub.abort();
    await holding;
  }
}

describe('the in-page indicator', () => {
  it('shows to the person while the agent acts, takes no clicks and no layout, and the page cannot open or restyle it', async () => {
    const { person } = await openCounter('pill');
    const layout =
      'JSON.stringify([document.documentElement.scrollHeight, document.body.getBoundingClientRect().toJSON()])';
    const before = await person.page<string>(layout);
    await whileActing(person, async () => {
      expect(await person.page<string>(layout)).toBe(before);
      expect(await person.page<boolean>(`${HOST}.shadowRoot === null`)).toBe(true);
      expect(await person.page<string>('document.documentElement.innerText')).not.toContain('Chrome MCP');
      const center = `(() => { const r = ${HOST}.getBoundingClientRect(); return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === ${HOST}; })()`;
      expect(await person.page<boolean>(center)).toBe(false);
      await person.page(
        `document.head.insertAdjacentHTML('beforeend', '<style>chrome-mcp-indicator { display: none !important; opacity: 0 !important }</style>')`,
      );
      expect(await person.page<number>(`${HOST}.getBoundingClientRect().width`)).toBeGreaterThan(0);
      // Only in the top frame: the child frame, which our reads walk too, has none.
      expect(await person.page<boolean>('frames[0].document.querySelector("chrome-mcp-indicator") === null')).toBe(
        true,
      );
    });
  });

  it('keeps its style on a page whose CSP forbids inline styles', async () => {
    const url = suite.server.url('stop-csp.html');
    await run('tab_new', { url });
    const target = (await suite.browser.host.list()).find((tab) => tab.url === url);
    const person = await personAt(suite.browser.browser.connection, target!.id);
    await whileActing(person, async () => {
      expect(await person.page<string>(`getComputedStyle(${HOST}).position`)).toBe('fixed');
    });
  });

  it('is left out of snapshot, get_text, find, get_html and screenshots', async () => {
    const { person } = await openCounter('reads');
    await whileActing(person, async () => {
      for (const [op, args] of [
        ['snapshot', {}],
        ['get_text', {}],
        ['find', { selector: '*' }],
      ] as const) {
        expect((await run(op, args)).text).not.toMatch(/Chrome MCP|chrome-mcp-indicator/);
      }
      expect((await run('find', { text: 'Esc to stop' })).text).toMatch(/^No element matches/);
      expect((await run('get_html', {})).text).not.toContain('chrome-mcp-indicator');
      // The person sees the pill where the page says its host is; the agent's screenshot there shows the page.
      const point = await person.page<{ x: number; y: number }>(
        `(() => { const r = ${HOST}.getBoundingClientRect(); return { x: Math.round(r.x + 8), y: Math.round(r.y + r.height / 2) }; })()`,
      );
      expect(Math.max(...readPng(await person.look()).pixel(point.x, point.y))).toBeLessThan(100);
      const shot = await run('screenshot', { format: 'png' });
      expect(readPng(shot.image!.data).pixel(point.x, point.y)).toEqual([255, 255, 255]);
    });
  });
});

// A blob window an agent's script opens, through the engine's own tab session (which gives the window a page context
// of its own, as the app does): what its page sends a second later reaches no one, nor after an eval inside it, and a
// later result names it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import { ctx } from '../support/engine-suite.js';
import { lateDocument } from '../support/late-documents.js';
import { heldLater } from '../support/late-results.js';
import { testServerPolicy } from '../support/test-policy.js';
import { useWatchedEngine } from '../support/watched-engine-tab.js';
import { until } from '../extension/support/until.js';
import { withSite } from '../extension/support/watched-popups.js';

// The watched site may be read and acted on, so a window to it meets no policy refusal: only the hold stops it.
const engine = useWatchedEngine((watched) => withSite(testServerPolicy('trusted', ['127.0.0.1']), watched, 'act'));
const { suite } = engine;
let executor: EngineExecutor;
let tab: string;

beforeAll(async () => {
  executor = createEngineExecutor(suite.browser.host, { tag: 'wd', policy: () => engine.gate.current() });
  const opened = await executor.run('tab_new', { url: suite.server.url('egress-late.html') }, ctx);
  tab = String(opened.data?.['tab']);
});
afterAll(() => executor?.dispose());

describe('a blob window the script opens, through the tab session', () => {
  it('stays held after an eval inside the window', async () => {
    const named: string[] = [];
    const run = async (expression: string, inTab = tab) => {
      const result = await executor.run('eval', { tab: inTab, expression }, ctx);
      named.push(...heldLater(result, engine.watched));
      return result;
    };
    // The window's page sends when its opener's page (not the agent's script) says so, after the eval in the window: a
    // fetch, and a WebSocket, which no Fetch pause stops (only the browser's rules do).
    const socket = `${engine.watched.origin.replace('http', 'ws')}/after-eval-socket`;
    const html =
      `<script>addEventListener('message', () => Promise.allSettled([
        fetch('${engine.watched.origin}/after-eval', { mode: 'no-cors' }),
        new Promise((settle) => Object.assign(new WebSocket('${socket}'), { onerror: settle, onclose: settle })),
      ]).then(() => opener.postMessage('afterEval', '*')))</scr` + `ipt>`;
    await run(`addEventListener('message', (event) => (window[event.data] = true));
      window.afterEvalWindow = window.open(URL.createObjectURL(new Blob([${JSON.stringify(html)}], { type: 'text/html' })));
      0`);
    const listed = async () => (await executor.run('tabs', {}, ctx)).data?.['tabs'] as { tab: string; url: string }[];
    const shown = await until(listed, (tabs) => tabs.some((each) => each.url.startsWith('blob:')), 20_000);
    const popup = shown.find((each) => each.url.startsWith('blob:'))!.tab;
    expect((await run('document.readyState', popup)).text).toBe('"complete"');
    const opener = (await suite.browser.host.list()).find((each) => each.url.endsWith('egress-late.html'))!;
    const openerCdp = await suite.browser.host.cdp(opener.id);
    await openerCdp.send('Runtime.evaluate', { expression: `afterEvalWindow.postMessage('go', '*')` });
    expect(
      (
        await until(
          () => run('window.afterEval === true'),
          (result) => result.text === 'true',
          20_000,
        )
      ).text,
    ).toBe('true');
    expect(engine.watched.requests).toEqual([]);
    const held = await until(
      async () => (await run('0'), named),
      (all) => all.length > 1,
    );
    expect([...held].sort()).toEqual(['GET W/after-eval (Fetch)', `WebSocket ${socket}`]);
  });

  it('sends nothing out a second later, and a later result names what it tried', async () => {
    const named: string[] = [];
    const run = async (expression: string) => {
      const result = await executor.run('eval', { tab, expression }, ctx);
      named.push(...heldLater(result, engine.watched));
      return result;
    };
    await run(lateDocument('blob-window', `${engine.watched.origin}/blob-window`, 'blobWindow'));
    // Each look is an eval of its own, whose result names what was held since the one before.
    expect(
      (
        await until(
          () => run('window.blobWindow === true'),
          (result) => result.text === 'true',
          20_000,
        )
      ).text,
    ).toBe('true');
    expect(
      await until(
        async () => (await run('0'), named),
        (held) => held.length > 0,
      ),
    ).toEqual(['GET W/blob-window (Fetch)']);
    expect(engine.watched.requests).toEqual([]);
  });
});

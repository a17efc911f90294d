// Reading what the engine keeps of a tab (console, network) through the executor, on a page that logged 300 lines from
// two frames: once the capture runs, a read sends the browser nothing, however long the agent polls, and judges the
// policy once per read rather than once per line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import { REFRESH_MS } from '../../shared/engine/presence.js';
import type { OperationContext } from '../../shared/protocol/operations.js';
import { useEngineSuite } from '../support/engine-suite.js';
import { recordingHost } from '../support/recording-host.js';
import { TEST_POLICY } from '../support/test-policy.js';

const suite = useEngineSuite();
/** The top page's last line and the cross-origin child's error, in whichever order they came. */
const BOTH_FRAMES = /^(?=[\s\S]*line 299$)(?=[\s\S]*child exploded)/m;
const sent: string[] = [];
/** How often the engine has asked for the policy. */
let asked = 0;
let executor: EngineExecutor;
// An agent whose session lists the DevTools tools: the tab's network is kept from its first use on.
const ctx: OperationContext = { progress: () => undefined, agent: { id: 'dev', live: ['dev'], devtools: true } };

beforeAll(() => {
  const policy = () => (asked++, TEST_POLICY);
  executor = createEngineExecutor(recordingHost(suite.browser.host, sent), { tag: 'kr', policy });
});
// Runs before the suite closes the browser (afterAll hooks run in reverse order).
afterAll(() => {
  executor?.dispose();
});

/** The page, once: it logs 300 lines and makes 20 requests, and the first reads start the capture and list frames. */
let logged: Promise<void> | undefined;
function loggedPage(): Promise<void> {
  logged ??= (async () => {
    await executor.run('navigate', { url: suite.server.url('console-page.html') }, ctx);
    await executor.run(
      'eval',
      {
        expression: `for (let i = 0; i < 300; i++) console.log('line', i);
          await Promise.all(Array.from({ length: 20 }, (_, i) => fetch('/network-data.json?i=' + i))); 0`,
      },
      ctx,
    );
    // The cross-origin child's lines come as it loads.
    await expect
      .poll(async () => (await executor.run('console', { limit: 500 }, ctx)).text, { timeout: 10_000 })
      .toMatch(BOTH_FRAMES);
    await executor.run('network', {}, ctx);
  })();
  return logged;
}

/** Resolves once the engine has sent no command for `ms` (or after 10 s, leaving the count to judge). */
async function sentNothingFor(ms: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  let seen = -1;
  while (seen !== sent.length && Date.now() < deadline) {
    seen = sent.length;
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
}

describe('reading what the engine keeps', () => {
  it('sends the browser no command, however long the agent polls', async () => {
    await loggedPage();
    // What the page's loading set off is done first: each new frame's world is armed as it appears (a breakpoint on
    // its WebSocket constructor, script-sockets.ts), which no read asks for.
    await sentNothingFor(500);
    sent.length = 0;
    // Polled as a model watching the console would, past the interval at which a page call tells the page the agent
    // is at work (presence.ts): a read that told it would show here.
    const until = Date.now() + REFRESH_MS * 1.5;
    let reads = 0;
    while (Date.now() < until || reads < 3) {
      expect((await executor.run('console', { limit: 500 }, ctx)).text).toMatch(BOTH_FRAMES);
      expect((await executor.run('network', { limit: 500 }, ctx)).text).toMatch(/network-data\.json\?i=19/);
      reads++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(sent).toEqual([]);
  });

  it('asks for the policy a few times per read, not once per line or request', async () => {
    await loggedPage();
    asked = 0;
    const text = (await executor.run('console', { limit: 500 }, ctx)).text;
    expect(text.split('\n').filter((line) => line.startsWith('#')).length).toBeGreaterThan(300);
    expect(asked).toBeLessThan(10);
    asked = 0;
    expect((await executor.run('network', { limit: 500 }, ctx)).text).toMatch(/network-data\.json\?i=19/);
    expect(asked).toBeLessThan(10);
  });
});

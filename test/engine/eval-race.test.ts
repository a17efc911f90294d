// A navigation racing an eval on real Chromium: the script runs in the trusted document it was judged in, or not at all,
// never in the read-only document that replaced it. 200 races of a document's first eval and 50 of a steady one, each
// with the navigation's commit landing at a different point of the eval (the read-only site answers after a varying
// delay, the eval starts after another).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../shared/engine/ops/eval.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { ToolError } from '../../shared/protocol/errors.js';
import { loadUrl } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { pageEval } from '../support/page-probes.js';
import { seeded } from '../support/seeded-random.js';

const suite = useEngineSuite();
/**
 * The fixture server's localhost port is trusted, the read-only site's port may only be read: one site, so the
 * navigation keeps the tab's renderer process and each race is quick.
 */
let gate: PolicyGate;
const RACES = 200;
let readOnly: { server: Server; origin: string };
let page: PageContext;
let mainFrameId: string;

beforeAll(async () => {
  // Each page answers after ?ms, so the commit falls at a different moment of the eval in each race.
  const server = createServer((request, response) => {
    const ms = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('ms') ?? '0');
    setTimeout(
      () => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Read only</title>'),
      ms,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  readOnly = { server, origin: `http://localhost:${(server.address() as AddressInfo).port}` };
  const trusted = new URL(suite.server.crossOrigin).host;
  gate = new PolicyGate(() => policyFromFlags({ allow: [new URL(readOnly.origin).host], trust: [trusted] }));
  const tab = await suite.browser.host.create('about:blank', { focus: false });
  page = new PageContext(await suite.browser.host.cdp(tab.id), gate);
  await page.frames.init();
  const { frameTree } = (await page.cdp.send('Page.getFrameTree', {})) as { frameTree: { frame: { id: string } } };
  mainFrameId = frameTree.frame.id;
});

afterAll(async () => {
  page?.dispose();
  readOnly?.server.closeAllConnections();
  await new Promise((resolve) => readOnly?.server.close(resolve));
});

/**
 * Resolves once the tab's main frame has committed a document at `origin` (true), or stopped loading without one (false:
 * a navigation the hold stopped), or after `ms`.
 */
function committedAt(origin: string, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), ms);
    let started = false;
    const off = page.cdp.on((event) => {
      if (event.sessionId) return;
      const frame = event.params['frame'] as { parentId?: string; url: string } | undefined;
      if (event.method === 'Page.frameNavigated' && !frame?.parentId && frame?.url.startsWith(origin)) done(true);
      if (event.params['frameId'] !== mainFrameId) return;
      if (event.method === 'Page.frameStartedLoading') started = true;
      if (event.method === 'Page.frameStoppedLoading' && started) done(false);
    });
    function done(committed: boolean) {
      clearTimeout(timer);
      off();
      resolve(committed);
    }
  });
}

describe('eval bound to the judged document', () => {
  // Unprimed, each race's eval is the document's first and asks the page (the mark); primed, an eval before the race
  // left the document told quiet, so the raced one goes ahead bound by the main world's unique id (ops/eval-ahead.ts).
  it.each([
    ['its first', false, RACES],
    ['a steady', true, RACES / 4],
  ])(
    `runs %s eval in no read-only document that a navigation put in place`,
    async (_, primed, races) => {
      const random = seeded(primed ? 12 : 11);
      const outcomes = { ranOnTrusted: 0, refused: 0, navigationHeld: 0 };
      // The script counts itself in the origin's own storage, which outlives the document it ran in.
      const expression = `localStorage.setItem('ran', String(Number(localStorage.getItem('ran') ?? 0) + 1)); location.origin`;
      for (let race = 0; race < races; race++) {
        await loadUrl(page, `${suite.server.crossOrigin}/mcp-hello.html`);
        if (primed) {
          // The last race's document may have fired the load event loadUrl heard: the priming eval waits for this one.
          const trusted = `${suite.server.crossOrigin}/mcp-hello.html`;
          await expect.poll(async () => (await page.frames.mainFrameUrl()).url).toBe(trusted);
          await evaluate(page, { expression: '0' }, ctx);
          expect(page.quiet.now()).toBeDefined();
        }
        const committed = committedAt(readOnly.origin, 5_000);
        void page.cdp
          .send('Page.navigate', { url: `${readOnly.origin}/away?ms=${Math.floor(random() * 25)}` })
          .catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 20)));
        const result = await evaluate(page, { expression }, ctx).then(
          (ran) => ran.text.split('\n')[0],
          (error: unknown) => error,
        );
        if (typeof result === 'string') {
          expect(result).toBe(JSON.stringify(suite.server.crossOrigin));
          outcomes.ranOnTrusted++;
        } else {
          expect(result).toBeInstanceOf(ToolError);
          expect(['POLICY_DENIED', 'EVAL_FAILED']).toContain((result as ToolError).code);
          outcomes.refused++;
        }
        // A navigation whose request met the eval's hold was stopped there (another origin): the tab stayed where it was.
        if (!(await committed)) outcomes.navigationHeld++;
      }
      await loadUrl(page, `${readOnly.origin}/away`);
      expect(await pageEval(page, `localStorage.getItem('ran')`)).toBeNull();
      expect(outcomes.ranOnTrusted + outcomes.refused).toBe(races);
      console.log(`eval-race (${primed ? 'primed' : 'first'}): ${JSON.stringify(outcomes)}`);
    },
    600_000,
  );
});

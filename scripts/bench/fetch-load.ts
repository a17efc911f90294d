// What the browser-wide Fetch interceptor (released-pauses.ts) costs a page's load in the fallback: a page of 200
// images in an engine tab, its own load time (navigation start to load end) under each standing of the interceptor,
// browsers launched interleaved so a busy machine weighs on all alike: `tsx scripts/bench/fetch-load.ts`
// (BENCH_ROUNDS rounds, 7 unless told; BENCH_IMAGES images).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CdpTabHost } from '../../electron/core/fallback/cdp-tab-host.js';
import type { CdpConnection } from '../../electron/core/fallback/cdp-connection.js';
import { launchBrowser } from '../../electron/core/fallback/launch.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { loadUrl } from '../../test/support/browser.js';
import { startFixtureServer, type FixtureServer } from '../../test/support/fixture-server.js';
import { pageEval } from '../../test/support/page-probes.js';
import { TEST_GATE } from '../../test/support/test-policy.js';
import { percentile } from './measure.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);
const IMAGES = Number(process.env['BENCH_IMAGES'] ?? 200);
const LOADS = 3;
const DOT = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';
const EVERY_REQUEST = { patterns: [{ urlPattern: '*', requestStage: 'Request' }] };

/**
 * How the root interceptor stands while the page loads: `none`, as before it existed (its enables never reach the
 * browser); `every`, on for every request from the start; `dormant`, as landed before any send pause; `widened`, as
 * landed after one, widened once the tab is attached.
 */
type Standing = 'none' | 'every' | 'dormant' | 'widened';
const STANDINGS: Standing[] = ['none', 'every', 'dormant', 'widened'];
/** Per standing, the requests the root interceptor paused: proof that each standing is what it says. */
const pausedAtRoot = new Map<Standing, number>();

/** The connection the host sees: its root Fetch.enable dropped (`none`) or made every request's (`every`). */
function seen(connection: CdpConnection, standing: Standing): CdpConnection {
  if (standing !== 'none' && standing !== 'every') return connection;
  const send = connection.send.bind(connection);
  return new Proxy(connection, {
    get(target, key, receiver) {
      if (key !== 'send') return Reflect.get(target, key, receiver) as unknown;
      return (method: string, params?: Record<string, unknown>, sessionId?: string) => {
        if (method !== 'Fetch.enable' || sessionId !== undefined) return send(method, params, sessionId);
        return standing === 'none' ? Promise.resolve({}) : send(method, EVERY_REQUEST);
      };
    },
  });
}

/** A page of `IMAGES` tiny images no cache holds (doc + images = the page's requests): what it costs is requests. */
function heavyPage(server: FixtureServer, load: string): string {
  server.serve('/fetch-load-dot.svg', { body: DOT, headers: { 'content-type': 'image/svg+xml' } });
  const images = Array.from({ length: IMAGES }, (_, i) => `<img src="/fetch-load-dot.svg?${load}-${i}" width="8">`);
  server.serve('/fetch-load.html', { body: `<!doctype html><title>load</title>${images.join('')}` });
  return server.url(`fetch-load.html?${load}`);
}

/** The load times (ms) of `LOADS` loads of the heavy page in one engine tab of a fresh browser. */
async function sample(server: FixtureServer, standing: Standing, round: number): Promise<number[]> {
  const profileDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-bench-fetch-'));
  const browser = await launchBrowser({ headless: true, profileDir, log: () => undefined });
  const host = new CdpTabHost(seen(browser.connection, standing), TEST_GATE, { windowPerTab: true });
  const tab = await host.create('about:blank', { focus: false });
  const page = new PageContext(await host.cdp(tab.id), TEST_GATE);
  const off = browser.connection.on((event) => {
    if (event.method === 'Fetch.requestPaused' && event.sessionId === undefined)
      pausedAtRoot.set(standing, (pausedAtRoot.get(standing) ?? 0) + 1);
  });
  try {
    await page.frames.init();
    if (standing === 'widened') await browser.connection.send('Fetch.enable', EVERY_REQUEST);
    const times: number[] = [];
    for (let load = 0; load < LOADS; load++) {
      await loadUrl(page, heavyPage(server, `${standing}-${round}-${load}`));
      times.push(await pageEval<number>(page, `performance.getEntriesByType('navigation')[0].loadEventEnd`));
    }
    return times;
  } finally {
    off();
    page.dispose();
    await browser.close();
    rmSync(profileDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const server = await startFixtureServer();
  const times = new Map<Standing, number[]>(STANDINGS.map((standing) => [standing, []]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with another standing, so none always runs first after a pause of the machine.
      const order = STANDINGS.map((_, i) => STANDINGS[(i + round) % STANDINGS.length]!);
      for (const standing of order) times.get(standing)!.push(...(await sample(server, standing, round)));
    }
  } finally {
    await server.close();
  }
  console.log(`page of ${IMAGES + 1} requests, ${ROUNDS} rounds × ${LOADS} loads, ms`);
  for (const [standing, samples] of times) {
    const cells = [50, 10, 90].map((p) => percentile(samples, p).toFixed(0));
    const paused = ((pausedAtRoot.get(standing) ?? 0) / samples.length).toFixed(0);
    console.log(`${standing.padEnd(8)} p50 ${cells[0]}  p10 ${cells[1]}  p90 ${cells[2]}  root pauses/load ${paused}`);
  }
}

void main();

// The frame registry on real Chromium: same- and cross-origin iframes are listed and each runs our isolated library.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startTestBrowser, type TestBrowser } from '../support/browser.js';

let server: FixtureServer;
let browser: TestBrowser;

beforeAll(async () => {
  server = await startFixtureServer();
  browser = await startTestBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('frames', () => {
  it('lists the main, same-origin and cross-origin frames in tree order', async () => {
    const { page } = await browser.open(server.url('frames.html'));
    const frames = await page.frames.list();
    expect(frames.map((frame) => new URL(frame.url).host)).toEqual([
      new URL(server.origin).host,
      new URL(server.origin).host,
      new URL(server.crossOrigin).host,
    ]);
    expect(frames[0]!.ordinal).toBe(0);
    expect(frames[2]!.sessionId).toBeDefined();
    expect(frames[1]!.sessionId).toBeUndefined();
  });

  it('runs the page library in every frame, cross-origin included, isolated from the page', async () => {
    const { page } = await browser.open(server.url('frames.html'));
    const frames = await page.frames.list();
    for (const frame of frames) {
      expect(await page.frames.call<number>(frame, 'refHigh')).toBe(0);
    }
    const pageSees = await page.cdp.send<{ result: { value: string } }>('Runtime.evaluate', { expression: 'typeof globalThis.__cm', returnByValue: true });
    expect(pageSees.result.value).toBe('undefined');
  });
});

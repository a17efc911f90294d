// screenshot on real Chromium: JPEG by default, PNG on request, element clips (cross-origin frames too), clamped
// full pages, and a background tab captured without activating it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cdp } from '../../shared/engine/cdp.js';
import { MAX_CAPTURE_PX, screenshot } from '../../shared/engine/ops/screenshot.js';
import { PageContext } from '../../shared/engine/page-context.js';
import type { OperationContext } from '../../shared/protocol/operations.js';
import { startTestBrowser, type TestBrowser } from '../support/browser.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { readPng } from '../support/png.js';

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

const ctx: OperationContext = { progress: () => undefined };

async function pageValue<T>(page: PageContext, expression: string): Promise<T> {
  const { result } = await page.cdp.send<{ result: { value: T } }>('Runtime.evaluate', { expression, returnByValue: true });
  return result.value;
}

/** Width and height from a JPEG's start-of-frame marker. */
function jpegSize(base64: string): { width: number; height: number } {
  const bytes = Buffer.from(base64, 'base64');
  let offset = 2;
  while (offset < bytes.length) {
    const marker = bytes[offset + 1]!;
    if (marker >= 0xc0 && marker <= 0xc2) return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    offset += 2 + bytes.readUInt16BE(offset + 2);
  }
  throw new Error('no SOF marker');
}

describe('screenshot', () => {
  it('captures the viewport as JPEG by default, in CSS pixels', async () => {
    const { page } = await browser.open(server.url('exec-shot.html'));
    const result = await screenshot(page, {}, ctx);
    expect(result.image?.mimeType).toBe('image/jpeg');
    const size = jpegSize(result.image!.data);
    expect(size).toEqual({ width: await pageValue(page, 'innerWidth'), height: await pageValue(page, 'innerHeight') });
    expect(result.text).toMatch(/^viewport \d+×\d+ jpeg \d+ KB$/);
  });

  it('captures PNG on request', async () => {
    const { page } = await browser.open(server.url('exec-shot.html'));
    const result = await screenshot(page, { format: 'png' }, ctx);
    expect(result.image?.mimeType).toBe('image/png');
    expect(readPng(result.image!.data).width).toBe(await pageValue(page, 'innerWidth'));
  });

  it('clips to an element below the fold, scrolling it into view', async () => {
    const { page } = await browser.open(server.url('exec-shot.html'));
    const result = await screenshot(page, { selector: '#red', format: 'png' }, ctx);
    const png = readPng(result.image!.data);
    expect([png.width, png.height]).toEqual([200, 100]);
    expect(png.pixel(100, 50)).toEqual([255, 0, 0]);
    expect(png.pixel(1, 1)).toEqual([255, 0, 0]);
    expect(await pageValue(page, 'scrollY')).toBeGreaterThan(0);
  });

  it('clips to an element inside a cross-origin frame', async () => {
    const { page } = await browser.open(server.url('exec-shot.html'));
    const frames = await page.frames.list();
    expect(frames[1]?.sessionId).toBeDefined();
    const result = await screenshot(page, { selector: '#green', frame: 1, format: 'png' }, ctx);
    const png = readPng(result.image!.data);
    expect([png.width, png.height]).toEqual([120, 80]);
    expect(png.pixel(60, 40)).toEqual([0, 255, 0]);
    expect(png.pixel(1, 1)).toEqual([0, 255, 0]);
  });

  it('captures the full page, and clamps a very tall one with a flag', async () => {
    const { page } = await browser.open(server.url('exec-shot.html'));
    const full = await screenshot(page, { fullPage: true }, ctx);
    expect(jpegSize(full.image!.data).height).toBe(await pageValue(page, 'document.documentElement.scrollHeight'));
    expect(full.data).toMatchObject({ truncated: false });

    const { page: tall } = await browser.open(server.url('exec-shot.html?tall=20000'));
    const clamped = await screenshot(tall, { fullPage: true }, ctx);
    expect(jpegSize(clamped.image!.data).height).toBe(MAX_CAPTURE_PX);
    expect(clamped.data).toMatchObject({ truncated: true });
    expect(clamped.text).toContain('truncated from 20000 px');
  });

  it('captures a background tab without activating anything', async () => {
    const { tabId } = await browser.open(server.url('exec-shot.html'));
    const front = await browser.host.create('data:text/html,<body style="background:rgb(0,0,255)">front', { focus: true });
    const sent: string[] = [];
    const cdp = await browser.host.cdp(tabId);
    const recording: Cdp = {
      send: (method, params, sessionId) => {
        sent.push(method);
        return cdp.send(method, params, sessionId);
      },
      on: (listener) => cdp.on(listener),
    };
    const page = new PageContext(recording);
    try {
      const result = await screenshot(page, { format: 'png' }, ctx);
      // The background tab's own white page, not the blue tab in front.
      expect(readPng(result.image!.data).pixel(5, 5)).toEqual([255, 255, 255]);
      expect(sent.filter((method) => /bringToFront|activate/i.test(method))).toEqual([]);
      expect((await browser.host.list()).find((tab) => tab.active)?.id).toBe(front.id);
    } finally {
      page.dispose();
    }
  });
});

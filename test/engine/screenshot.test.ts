// screenshot on real Chromium: JPEG by default, PNG on request, element clips (cross-origin frames too), clamped
// full pages, and a background tab captured without activating it.
import { describe, expect, it } from 'vitest';
import type { Cdp } from '../../shared/engine/cdp.js';
import { PausedChain } from '../../shared/engine/paused-chain.js';
import { MAX_CAPTURE_PX, screenshot } from '../../shared/engine/ops/screenshot.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { readPng } from '../support/png.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { pageEval } from '../support/page-probes.js';
import { TEST_GATE } from '../support/test-policy.js';

const suite = useEngineSuite();

/** Width and height from a JPEG's start-of-frame marker. */
function jpegSize(base64: string): { width: number; height: number } {
  const bytes = Buffer.from(base64, 'base64');
  let offset = 2;
  while (offset < bytes.length) {
    const marker = bytes[offset + 1]!;
    if (marker >= 0xc0 && marker <= 0xc2)
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    offset += 2 + bytes.readUInt16BE(offset + 2);
  }
  throw new Error('no SOF marker');
}

describe('screenshot', () => {
  it('captures the viewport as JPEG by default, in CSS pixels', async () => {
    const { page } = await suite.browser.open(suite.server.url('exec-shot.html'));
    const result = await screenshot(page, {}, ctx);
    expect(result.image?.mimeType).toBe('image/jpeg');
    const size = jpegSize(result.image!.data);
    expect(size).toEqual({ width: await pageEval(page, 'innerWidth'), height: await pageEval(page, 'innerHeight') });
    expect(result.text).toMatch(/^viewport \d+×\d+ jpeg \d+ KB$/);
  });

  it('captures PNG on request', async () => {
    const { page } = await suite.browser.open(suite.server.url('exec-shot.html'));
    const result = await screenshot(page, { format: 'png' }, ctx);
    expect(result.image?.mimeType).toBe('image/png');
    expect(readPng(result.image!.data).width).toBe(await pageEval(page, 'innerWidth'));
  });

  it('clips to an element below the fold, scrolling it into view', async () => {
    const { page } = await suite.browser.open(suite.server.url('exec-shot.html'));
    const result = await screenshot(page, { selector: '#red', format: 'png' }, ctx);
    const png = readPng(result.image!.data);
    expect([png.width, png.height]).toEqual([200, 100]);
    expect(png.pixel(100, 50)).toEqual([255, 0, 0]);
    expect(png.pixel(1, 1)).toEqual([255, 0, 0]);
    expect(await pageEval(page, 'scrollY')).toBeGreaterThan(0);
  });

  it('clips to an element inside a cross-origin frame', async () => {
    const { page } = await suite.browser.open(suite.server.url('exec-shot.html'));
    const frames = await page.frames.list();
    expect(frames[1]?.sessionId).toBeDefined();
    const result = await screenshot(page, { selector: '#green', frame: 1, format: 'png' }, ctx);
    const png = readPng(result.image!.data);
    expect([png.width, png.height]).toEqual([120, 80]);
    expect(png.pixel(60, 40)).toEqual([0, 255, 0]);
    expect(png.pixel(1, 1)).toEqual([0, 255, 0]);
  });

  it('captures the full page, and clamps a very tall one with a flag', async () => {
    const { page } = await suite.browser.open(suite.server.url('exec-shot.html'));
    const full = await screenshot(page, { fullPage: true }, ctx);
    expect(jpegSize(full.image!.data).height).toBe(await pageEval(page, 'document.documentElement.scrollHeight'));
    expect(full.data).toMatchObject({ truncated: false });

    const { page: tall } = await suite.browser.open(suite.server.url('exec-shot.html?tall=20000'));
    const clamped = await screenshot(tall, { fullPage: true }, ctx);
    expect(jpegSize(clamped.image!.data).height).toBe(MAX_CAPTURE_PX);
    expect(clamped.data).toMatchObject({ truncated: true });
    expect(clamped.text).toContain('truncated from 20000 px');
    // A 16,384 px capture is given up to 31 s on a loaded box (screenshot.ts).
  }, 90_000);

  it('captures a background tab without activating anything', async () => {
    const { tabId } = await suite.browser.open(suite.server.url('exec-shot.html'));
    const front = await suite.browser.host.create('data:text/html,<body style="background:rgb(0,0,255)">front', {
      focus: true,
    });
    const sent: string[] = [];
    const cdp = await suite.browser.host.cdp(tabId);
    const recording: Omit<Cdp, 'pausedChain'> = {
      send: (method, params, sessionId) => {
        sent.push(method);
        return cdp.send(method, params, sessionId);
      },
      on: (listener) => cdp.on(listener),
    };
    const page = new PageContext({ ...recording, pausedChain: new PausedChain(recording) }, TEST_GATE);
    try {
      const result = await screenshot(page, { format: 'png' }, ctx);
      // The background tab's own white page, not the blue tab in front.
      expect(readPng(result.image!.data).pixel(5, 5)).toEqual([255, 255, 255]);
      expect(sent.filter((method) => /bringToFront|activate/i.test(method))).toEqual([]);
      expect((await suite.browser.host.list()).find((tab) => tab.active)?.id).toBe(front.id);
    } finally {
      page.dispose();
    }
  });

  it('answers screenshot after screenshot of a background tab whose page keeps changing', async () => {
    // Headless Chromium draws no frame for a background tab in a shared window, and after a few captures one waits for
    // good: the fallback opens each tab in a window of its own, which always draws.
    const { page } = await suite.browser.open(suite.server.url('exec-shot.html'));
    for (let round = 0; round < 10; round++) {
      await page.cdp.send('Runtime.evaluate', {
        expression: `document.body.append(Object.assign(document.createElement('p'), { textContent: 'round ${round}' }))`,
      });
      expect((await screenshot(page, { format: 'jpeg' }, ctx)).text).toMatch(/^viewport \d+×\d+ jpeg/);
    }
  });
});

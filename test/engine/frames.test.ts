// The frame registry on real Chromium: same- and cross-origin iframes are listed and each runs our isolated library.
import { describe, expect, it } from 'vitest';
import { withDeadline } from '../../shared/engine/deadline.js';
import { useEngineSuite } from '../support/engine-suite.js';
import { pageEval } from '../support/page-probes.js';

const suite = useEngineSuite();

describe('frames', () => {
  it('lists the main, same-origin and cross-origin frames in tree order', async () => {
    const { page } = await suite.browser.open(suite.server.url('frames.html'));
    const frames = await page.frames.list();
    expect(frames.map((frame) => new URL(frame.url).host)).toEqual([
      new URL(suite.server.origin).host,
      new URL(suite.server.origin).host,
      new URL(suite.server.crossOrigin).host,
    ]);
    expect(frames[0]!.ordinal).toBe(0);
    expect(frames[2]!.sessionId).toBeDefined();
    expect(frames[1]!.sessionId).toBeUndefined();
  });

  it('runs the page library in every frame, cross-origin included, isolated from the page', async () => {
    const { page } = await suite.browser.open(suite.server.url('frames.html'));
    const frames = await page.frames.list();
    for (const frame of frames) {
      expect(await page.frames.call<number>(frame, 'refHigh')).toBe(0);
    }
    expect(await pageEval(page, 'typeof globalThis.__cm')).toBe('undefined');
  });
});

describe('frames: a kept list', () => {
  it('answers from its last read while no frame event came, and reads again after one', async () => {
    const { page } = await suite.browser.open(suite.server.url('frames.html'));
    const first = await page.frames.list();
    const asked: string[] = [];
    const send = page.cdp.send.bind(page.cdp);
    page.cdp.send = (method, params, sessionId) => {
      asked.push(method);
      return send(method, params, sessionId);
    };
    try {
      expect(await page.frames.list()).toEqual(first);
      expect(asked).not.toContain('Page.getFrameTree');
      await send('Runtime.evaluate', { expression: 'document.getElementById("same").src = "/nav-basic.html"; new Promise((r) => document.getElementById("same").onload = r)', awaitPromise: true });
      const after = await page.frames.list();
      expect(asked).toContain('Page.getFrameTree');
      expect(after.find((frame) => frame.ordinal === first[1]!.ordinal)?.url).toBe(suite.server.url('nav-basic.html'));
    } finally {
      page.cdp.send = send;
    }
  });
});

describe('frames: a hung out-of-process iframe', () => {
  it('still lists the tab, naming the silent frame unreadable, and reads it again once it answers', async () => {
    const { page } = await suite.browser.open(suite.server.url('frames.html'));
    const cross = (await page.frames.list()).find((frame) => frame.sessionId !== undefined)!;
    // A script that never yields blocks every CDP command to that renderer, Page.getFrameTree included. A paused
    // debugger does not: its nested message loop still answers the frame tree (measured, so it cannot stand in here).
    const busy = page.cdp.send('Runtime.evaluate', { expression: 'while (true) {}' }, cross.sessionId).catch(() => undefined);
    // The tree changes meanwhile (a new iframe), so list() must ask every session again rather than reuse its last answer.
    await page.cdp.send('Runtime.evaluate', { expression: 'document.body.append(document.createElement("iframe"))' });
    try {
      // A generous bound: this checks that list() answers at all, not how fast.
      const frames = await withDeadline(page.frames.list(), 8_000, () => {
        throw new Error('list() did not answer within 8 s');
      });
      expect(frames[0]).toMatchObject({ ordinal: 0, url: suite.server.url('frames.html') });
      expect(frames.find((frame) => frame.frameId === cross.frameId)).toMatchObject({
        ordinal: cross.ordinal,
        url: cross.url,
        unreadable: expect.stringMatching(/^did not answer within 2 s/),
      });
    } finally {
      await page.cdp.send('Runtime.terminateExecution', {}, cross.sessionId);
      await busy;
    }
    expect((await page.frames.list()).find((frame) => frame.frameId === cross.frameId)?.unreadable).toBeUndefined();
  });
});

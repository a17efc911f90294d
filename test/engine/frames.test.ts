// The frame registry on real Chromium: same- and cross-origin iframes are listed and each runs our isolated library.
import { describe, expect, it } from 'vitest';
import { withDeadline } from '../../shared/engine/deadline.js';
import { callOnElement } from '../../shared/engine/targets.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { useEngineSuite } from '../support/engine-suite.js';
import { TEST_GATE } from '../support/test-policy.js';
import { pageEval } from '../support/page-probes.js';

const suite = useEngineSuite();

describe('frames', () => {
  it('reports a tab whose first document has not committed as having no page, so a call there is told to wait', async () => {
    // Chrome reports such a frame's URL as ":", which the policy would refuse as a bad URL rather than say "wait".
    const tab = await suite.browser.host.create(suite.server.url('slow?ms=4000'), { focus: false });
    const page = new PageContext(await suite.browser.host.cdp(tab.id), TEST_GATE);
    try {
      const main = await page.frames.mainFrameUrl();
      expect(main.url).toBe('');
      // Nothing there to read yet; a script is told to wait for the page.
      expect(TEST_GATE.decide(main, 'read')).toMatchObject({ allowed: true, level: 'none' });
      expect(TEST_GATE.decide(main, 'trusted')).toMatchObject({ allowed: false, reason: 'no_page' });
      expect((await page.frames.list())[0]!.url).toBe('');
    } finally {
      page.dispose();
      await suite.browser.host.close(tab.id);
    }
  });

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
      expect(await page.frames.call(frame, 'refHigh')).toBe(0);
    }
    expect(await pageEval(page, 'typeof globalThis.__cm')).toBe('undefined');
  });
});

describe('frames: calls typed by the page library', () => {
  it('takes each function by its name, its parameters after the handles, and gives back its result', async () => {
    const { page } = await suite.browser.open(suite.server.url('frames.html'));
    const [main] = await page.frames.list();
    const frame = main!;
    const pick = [{ selector: '#top' }, undefined] as const;
    const objectId: string = await page.frames.call(frame, 'pickElement', [...pick], { returnHandle: true });
    const text: { text: string } = await page.frames.call(frame, 'elementText', [100], { handles: [objectId] });
    expect(text.text).toBe('Top button');
    expect((await callOnElement(page, { frame, objectId }, 'elementHtml', [200])).text).toContain('id="top"');
    const count: number = await page.frames.call(frame, 'countElements', [{ selector: 'iframe' }]);
    expect(count).toBe(2);
    // Checked by tsc (npm run typecheck), never run: each line would compile if calls still took any name and cast.
    const wrong = async () => {
      // @ts-expect-error: no such page-library function
      await page.frames.call(frame, 'noSuchFunction');
      // @ts-expect-error: elementText takes its element as a handle, then maxChars
      await page.frames.call(frame, 'elementText', [100]);
      // @ts-expect-error: maxChars is a number
      await page.frames.call(frame, 'pageText', ['100']);
      // @ts-expect-error: pageText needs its maxChars
      await page.frames.call(frame, 'pageText');
      // @ts-expect-error: countElements answers a number
      const named: string = await page.frames.call(frame, 'countElements', [{ selector: 'a' }]);
      // @ts-expect-error: only a function that returns an element gives a handle
      await page.frames.call(frame, 'countElements', [{ selector: 'a' }], { returnHandle: true });
      // @ts-expect-error: pageText's first parameter is no element
      await page.frames.call(frame, 'pageText', [], { handles: [objectId] });
      // @ts-expect-error: on an element, elementText still needs its maxChars
      await callOnElement(page, { frame, objectId }, 'elementText');
      return named;
    };
    expect(typeof wrong).toBe('function');
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
      await send('Runtime.evaluate', {
        expression:
          'document.getElementById("same").src = "/nav-basic.html"; new Promise((r) => document.getElementById("same").onload = r)',
        awaitPromise: true,
      });
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
    const busy = page.cdp
      .send('Runtime.evaluate', { expression: 'while (true) {}' }, cross.sessionId)
      .catch(() => undefined);
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

// wait_for on real Chromium: text, visible selector, gone, URL, late and cross-origin frames; timeouts are answers.
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../shared/engine/ops/wait.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { pageEval } from '../support/page-probes.js';

const suite = useEngineSuite();

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
}

describe('wait_for', () => {
  it('matches text once it is rendered, whitespace and case aside', async () => {
    // Proof that it waited: the text is not there yet when asked at once (timeout 0), then it is matched.
    const { page } = await suite.browser.open(suite.server.url('wait-page.html?text=1500'));
    expect((await waitFor(page, { text: 'saved successfully', timeout: 0 }, ctx)).data).toMatchObject({
      matched: false,
    });
    const { value, ms } = await timed(waitFor(page, { text: 'saved successfully' }, ctx));
    expect(value.data).toMatchObject({ matched: true, frame: 0 });
    expect(value.text).toMatch(/^matched: text "saved successfully"/);
    expect(ms).toBeLessThan(5_000);
  });

  it('answers {matched:false} at the timeout instead of failing', async () => {
    const { page } = await suite.browser.open(suite.server.url('wait-page.html'));
    const { value, ms } = await timed(waitFor(page, { text: 'never there', timeout: 400 }, ctx));
    expect(value.data).toMatchObject({ matched: false });
    expect(value.text).toMatch(/^\{matched:false\}/);
    // Timers may fire a millisecond early against the clock that measures them.
    expect(ms).toBeGreaterThanOrEqual(395);
    expect(ms).toBeLessThan(5_000);
  });

  it('waits for a selector to become visible, not merely present', async () => {
    // The page shows #later only when told to, so a busy machine cannot show it before the first wait ends.
    const { page } = await suite.browser.open(suite.server.url('wait-page.html'));
    expect(await pageEval(page, "document.getElementById('later') !== null")).toBe(true);
    const early = await waitFor(page, { selector: '#later', timeout: 150 }, ctx);
    expect(early.data).toMatchObject({ matched: false });
    const waiting = timed(waitFor(page, { selector: '#later' }, ctx));
    await pageEval(page, "setTimeout(() => { document.getElementById('later').style.display = 'block'; }, 100)");
    const { value, ms } = await waiting;
    expect(value.data).toMatchObject({ matched: true });
    expect(ms).toBeLessThan(5_000);
  });

  it('waits for an element to be gone', async () => {
    const { page } = await suite.browser.open(suite.server.url('wait-page.html?gone=1500'));
    expect((await waitFor(page, { selector: '#spinner', gone: true, timeout: 0 }, ctx)).data).toMatchObject({
      matched: false,
    });
    const { value } = await timed(waitFor(page, { selector: '#spinner', gone: true }, ctx));
    expect(value.text).toMatch(/^matched: selector #spinner gone/);
    expect((await waitFor(page, { text: 'Loading', gone: true, timeout: 100 }, ctx)).data).toMatchObject({
      matched: true,
    });
  });

  it('waits for the URL to contain a piece, same-document changes included', async () => {
    const { page } = await suite.browser.open(suite.server.url('wait-page.html?push=1500'));
    expect((await waitFor(page, { url: '/wait-done', timeout: 0 }, ctx)).data).toMatchObject({ matched: false });
    const { value, ms } = await timed(waitFor(page, { url: '/wait-done' }, ctx));
    expect(value.data).toMatchObject({ matched: true });
    expect(ms).toBeLessThan(5_000);
  });

  it('finds text in a frame that is added after the wait began', async () => {
    const { page } = await suite.browser.open(suite.server.url('wait-page.html?frame=400'));
    const { value } = await timed(waitFor(page, { text: 'Inside the frame', timeout: 5_000 }, ctx));
    expect(value.data).toMatchObject({ matched: true });
    expect((value.data as { frame: number }).frame).toBeGreaterThan(0);
  });

  it('finds text that appears late inside a cross-origin frame added late', async () => {
    const { page } = await suite.browser.open(suite.server.url('wait-page.html?cross=200'));
    const { value } = await timed(waitFor(page, { text: 'Inside the frame', timeout: 5_000 }, ctx));
    expect(value.data).toMatchObject({ matched: true });
    const frames = await page.frames.list();
    const hit = frames.find((frame) => frame.ordinal === (value.data as { frame: number }).frame);
    expect(hit?.sessionId).toBeDefined();
  });

  it('looks only in the named frame when given one', async () => {
    const { page } = await suite.browser.open(suite.server.url('wait-page.html?text=0'));
    await waitFor(page, { text: 'Saved' }, ctx);
    expect((await waitFor(page, { text: 'Saved', frame: 0, timeout: 100 }, ctx)).data).toMatchObject({ matched: true });
    expect((await waitFor(page, { text: 'Saved', frame: 'wait-child', timeout: 100 }, ctx)).data).toMatchObject({
      matched: false,
    });
  });

  it("keeps to its timeout while the page's main thread is blocked", async () => {
    const { page } = await suite.browser.open(suite.server.url('wait-page.html'));
    await pageEval(page, 'setTimeout(() => { const end = Date.now() + 3000; while (Date.now() < end); }, 50)');
    await new Promise((resolve) => setTimeout(resolve, 150));
    const { value, ms } = await timed(waitFor(page, { text: 'never there', timeout: 500 }, ctx));
    expect(value.data).toMatchObject({ matched: false });
    expect(ms).toBeLessThan(2_800);
  });

  it('rejects a bad selector and a missing condition as BAD_ARGS', async () => {
    const { page } = await suite.browser.open(suite.server.url('wait-page.html'));
    expect((await failure(waitFor(page, { selector: 'div[', timeout: 10_000 }, ctx))).code).toBe('BAD_ARGS');
    expect((await failure(waitFor(page, {}, ctx))).code).toBe('BAD_ARGS');
  });
});

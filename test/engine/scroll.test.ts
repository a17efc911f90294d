// scroll on real Chromium, in background tabs: exact, instant positions for the page, elements and app shells.
import { describe, expect, it } from 'vitest';
import { scroll } from '../../shared/engine/ops/scroll.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { pageEval } from '../support/page-probes.js';

const suite = useEngineSuite();

describe('scroll', () => {
  it('scrolls the page by dy and to its edges, instantly despite smooth scrolling', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-scroll.html'));
    const max = await pageEval<number>(
      page,
      'document.documentElement.scrollHeight - document.documentElement.clientHeight',
    );
    expect((await scroll(page, { dy: 500 }, ctx)).text).toBe(`scrolled page to 0,500 (max 0,${max})`);
    expect(await pageEval(page, 'scrollY')).toBe(500);
    expect((await scroll(page, { to: 'bottom' }, ctx)).text).toBe(`scrolled page to 0,${max} (max 0,${max})`);
    expect((await scroll(page, { to: 'top' }, ctx)).text).toBe(`scrolled page to 0,0 (max 0,${max})`);
    // The page hears it too: scroll events fire on the next frame, which a background tab may hold back.
    await expect.poll(() => pageEval<number>(page, 'scrolls'), { timeout: 5_000 }).toBeGreaterThan(0);
  });

  it('scrolls an element, or the scroller that holds it', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-scroll.html'));
    const max = await pageEval<number>(
      page,
      '(() => { const l = document.getElementById("list"); return l.scrollHeight - l.clientHeight; })()',
    );
    expect((await scroll(page, { selector: '#list', dy: 300 }, ctx)).text).toBe(
      `scrolled list "Results" to 0,300 (max 0,${max})`,
    );
    expect((await scroll(page, { selector: '#last-item', dy: 100, element: 'the results' }, ctx)).text).toBe(
      `scrolled the results to 0,400 (max 0,${max})`,
    );
    expect(await pageEval(page, 'scrollY')).toBe(0);
  });

  it('brings a target into view', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-scroll.html'));
    expect((await scroll(page, { selector: '#end' }, ctx)).text).toBe('scrolled button "End button" into view');
    const box = await pageEval<{ top: number; bottom: number }>(
      page,
      '(() => { const r = document.getElementById("end").getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; })()',
    );
    expect(box.top).toBeGreaterThanOrEqual(0);
    expect(box.bottom).toBeLessThanOrEqual(await pageEval<number>(page, 'innerHeight'));
  });

  it('scrolls the pane of an app whose document does not scroll', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-app-shell.html'));
    expect((await scroll(page, { dy: 400 }, ctx)).text).toMatch(/^scrolled region "Main pane" to 0,400 \(max 0,\d+\)$/);
    expect(await pageEval(page, 'document.getElementById("main").scrollTop')).toBe(400);
  });

  it('asks for a delta, an edge or a target', async () => {
    const { page } = await suite.browser.open(suite.server.url('act-scroll.html'));
    expect((await failure(scroll(page, {}, ctx))).code).toBe('BAD_ARGS');
  });
});

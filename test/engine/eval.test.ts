// eval on real Chromium: the page's main world (top, same-origin and cross-origin frames, under CSP), awaited
// promises, exceptions as {ok:false} results, and values the model can read.
import { beforeAll, describe, expect, it } from 'vitest';
import { EVAL_MAX_CHARS, evaluate } from '../../shared/engine/ops/eval.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';

const suite = useEngineSuite();
let page: PageContext;

beforeAll(async () => {
  ({ page } = await suite.browser.open(suite.server.url('exec-frames.html')));
});

const run = (expression: string, frame?: number | string) => evaluate(page, { expression, frame }, ctx);

describe('eval', () => {
  it('runs in the page main world, where page globals live', async () => {
    expect((await run('document.title')).text).toBe('"Exec frames"');
    expect((await run('pageVar + 1')).text).toBe('43');
    expect((await run('typeof __cm')).text).toBe('"undefined"');
  });

  it('awaits promises, top-level await included', async () => {
    expect((await run('new Promise((resolve) => setTimeout(() => resolve({ n: 7 }), 50))')).text).toBe('{"n":7}');
    expect((await run('await Promise.resolve(5) * 2')).text).toBe('10');
  });

  it('answers a page exception or a rejection as an ok:false result', async () => {
    const thrown = await run('null.x');
    expect(thrown.data).toMatchObject({ ok: false });
    expect(JSON.parse(thrown.text)).toEqual({
      ok: false,
      error: expect.stringMatching(/^TypeError: Cannot read properties of null/),
    });
    expect(JSON.parse((await run('Promise.reject(new RangeError("too far"))')).text)).toEqual({
      ok: false,
      error: 'RangeError: too far',
    });
    expect(JSON.parse((await run('throw "plain"')).text)).toEqual({ ok: false, error: 'Uncaught "plain"' });
  });

  it('describes what JSON cannot carry', async () => {
    expect((await run('undefined')).text).toBe('undefined');
    expect((await run('NaN')).text).toBe('NaN');
    expect((await run('10n ** 20n')).text).toBe('100000000000000000000n');
    expect((await run('function named() {}; named')).text).toBe('[Function named]');
    expect((await run('document.getElementById("top")')).text).toBe('<button#top.primary.big "Top button">');
    expect((await run('const loop = { a: 1 }; loop.self = loop; loop')).text).toBe('{"a":1,"self":"[Circular]"}');
    expect((await run('({ u: undefined, f() {}, m: new Map([["k", 1]]), d: new Date(0) })')).text).toBe(
      '{"u":"[undefined]","f":"[Function f]","m":{"[Map]":[["k",1]]},"d":"1970-01-01T00:00:00.000Z"}',
    );
    expect((await run('document.querySelectorAll("iframe")')).text).toBe('["<iframe#same>","<iframe#cross>"]');
  });

  it('caps a huge value and says so', async () => {
    const long = await run('"x".repeat(100000)');
    expect(long.text.length).toBeLessThan(EVAL_MAX_CHARS + 100);
    expect(long.text).toContain(`truncated: ${EVAL_MAX_CHARS} of 100002 chars shown`);
    const wide = await run('Array.from({ length: 50000 }, (_, i) => ({ i, s: "y".repeat(20) }))');
    expect(wide.text).toContain('"… 49900 more"');
  });

  it('runs in a same-origin frame main world and in a cross-origin frame', async () => {
    const frames = await page.frames.list();
    expect(frames[1]!.sessionId).toBeUndefined();
    expect(frames[2]!.sessionId).toBeDefined();
    expect((await run('childVar', 1)).text).toBe('"child main world ?same"');
    expect((await run('childVar', 2)).text).toBe('"child main world ?cross"');
    expect((await run('location.host', 'exec-child.html?cross')).text).toBe(
      JSON.stringify(new URL(suite.server.crossOrigin).host),
    );
  });

  it('runs in a same-origin frame even where CSP forbids eval', async () => {
    const { page: csp } = await suite.browser.open(suite.server.url('csp/exec-csp.html'));
    const frames = await csp.frames.list();
    const inFrame = await evaluate(csp, { expression: 'document.title + eval("1 + 1")', frame: 1 }, ctx);
    expect(inFrame.text).toBe(`"Exec CSP child2"`);
    expect(frames[1]!.sessionId).toBeUndefined();
    // The page's own eval, run later from a page task, is refused: the policy is in force in that frame.
    const later =
      'new Promise((resolve) => setTimeout(() => { try { resolve(eval("1")); } catch (error) { resolve(error.name); } }))';
    expect((await evaluate(csp, { expression: later, frame: 1 }, ctx)).text).toBe('"EvalError"');
  });

  it('rejects a frame that matches several or none', async () => {
    expect((await failure(run('1', 'exec-child'))).code).toBe('AMBIGUOUS');
    expect((await failure(run('1', 'no-such-frame'))).code).toBe('FRAME_NOT_FOUND');
  });
});

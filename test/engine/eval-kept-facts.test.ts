// What eval keeps in the page between calls (the password watch, the egress hold's switches) on real Chromium: a
// password field or label that comes after the first eval still refuses the next one, the page's own sends between
// evals go out, and a new document's first eval is held as the first one was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../shared/engine/ops/eval.js';
import { navigate } from '../../shared/engine/ops/navigate.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { pageEval } from '../support/page-probes.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';

const suite = useEngineSuite();
let watched: WatchedSite;

beforeAll(async () => {
  watched = await startWatchedSite();
});
afterAll(() => watched?.close());

const open = async (path: string) => (await suite.browser.open(suite.server.url(path))).page;
const run = (page: PageContext, expression: string) => evaluate(page, { expression }, ctx);

/** Runs `expression` in the page's own world, outside any eval, and waits for the promise it makes. */
async function pageAwait(page: PageContext, expression: string): Promise<void> {
  const { exceptionDetails } = await page.cdp.send<{ exceptionDetails?: { text: string } }>('Runtime.evaluate', {
    expression,
    awaitPromise: true,
  });
  if (exceptionDetails) throw new Error(`page script failed: ${exceptionDetails.text}`);
}

describe('the password watch', () => {
  it('refuses the next eval once the page adds a password field after the first', async () => {
    const page = await open('mcp-hello.html');
    expect((await run(page, 'document.title')).text).toBe('"Hello from the fixture"');
    await pageEval(
      page,
      `document.body.insertAdjacentHTML('beforeend', '<label>Password <input type="password"></label>')`,
    );
    const error = await failure(run(page, 'window.ran = true'));
    expect(error.code).toBe('PASSWORD_FIELD');
    expect(error.message).toContain('shows a password field (label "Password")');
    expect(await pageEval(page, 'typeof window.ran')).toBe('undefined');
  });

  it('refuses once a text field already there gets a label saying password, or a shadow root holding one', async () => {
    const page = await open('mcp-hello.html');
    await pageEval(
      page,
      `document.body.insertAdjacentHTML('beforeend', '<label id="l">Note <input id="f"></label><div id="h"></div>')`,
    );
    expect((await run(page, 'document.title')).text).toBe('"Hello from the fixture"');
    await pageEval(page, `document.getElementById('l').firstChild.data = 'Passwort '`);
    expect((await failure(run(page, '1'))).code).toBe('PASSWORD_FIELD');
    await pageEval(page, `document.getElementById('l').remove()`);
    expect((await run(page, '2')).text).toBe('2');
    // The root is attached before the host is in the document, as a component's constructor does.
    await pageEval(
      page,
      `const host = document.createElement('div'); host.attachShadow({ mode: 'open' }).innerHTML = '<input autocomplete="current-password">'; document.getElementById('h').append(host)`,
    );
    expect((await failure(run(page, '3'))).code).toBe('PASSWORD_FIELD');
  });
});

describe('the egress hold between evals', () => {
  it('lets the page’s own send to another origin go out between two evals', async () => {
    const page = await open('egress-page.html');
    expect((await run(page, '1')).text).toBe('1');
    const url = JSON.stringify(`${watched.origin}/between`);
    await pageAwait(
      page,
      `new Promise((resolve) => { const image = new Image(); image.onload = image.onerror = resolve; image.src = ${url}; })`,
    );
    expect(watched.requests).toContain('/between');
    expect((await run(page, '2')).text).toBe('2');
  });

  it('holds an eval’s send to another origin on the new document a navigation brought', async () => {
    const page = await open('egress-page.html');
    expect((await run(page, '1')).text).toBe('1');
    await navigate(page, { url: suite.server.url('mcp-hello.html') }, ctx);
    watched.requests.length = 0;
    const result = await run(page, `new Image().src = '${watched.origin}/after-navigation'`);
    expect(result.data?.['held']).toEqual([`GET ${watched.origin}/after-navigation (Image)`]);
    const after = JSON.stringify(`${watched.origin}/after`);
    await pageAwait(
      page,
      `new Promise((resolve) => { const image = new Image(); image.onload = image.onerror = resolve; image.src = ${after}; })`,
    );
    expect(watched.requests).toEqual(['/after']);
  });
});

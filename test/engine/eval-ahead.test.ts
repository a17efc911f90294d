// A steady eval sent without asking the page first (ops/eval-ahead.ts), on real Chromium: what the page did just before
// the script ran, or what the script did, still refuses where the guards would, and nothing of the script comes back.
import { expect, it } from 'vitest';
import { evaluate } from '../../shared/engine/ops/eval.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { pageEval } from '../support/page-probes.js';

const suite = useEngineSuite();

const run = (page: PageContext, expression: string) => evaluate(page, { expression }, ctx);

/** A tab past its first eval, whose watch has told the document quiet: the next eval goes ahead. */
async function steady(): Promise<PageContext> {
  const { page } = await suite.browser.open(suite.server.url('mcp-hello.html'));
  expect((await run(page, 'document.title')).text).toBe('"Hello from the fixture"');
  expect(page.quiet.now()).toBeDefined();
  return page;
}

it('refuses, returning nothing, when the page inserts a password field in the task just before the script', async () => {
  const page = await steady();
  // The page's own task, sent ahead of the eval on the same session: it runs first, and the engine has not heard of it
  // when it sends the script.
  const inserted = page.cdp.send('Runtime.evaluate', {
    expression: `document.body.insertAdjacentHTML('beforeend', '<input type="password" value="hunter2">')`,
  });
  const error = await failure(run(page, `document.querySelector('input[type=password]')?.value ?? 'none'`));
  await inserted;
  expect(error.code).toBe('PASSWORD_FIELD');
  expect(JSON.stringify(error)).not.toContain('hunter2');
  expect(error.message).not.toContain('hunter2');
});

it('withholds what a script that itself makes a password field returns, even its exception', async () => {
  const page = await steady();
  const made = `document.body.insertAdjacentHTML('beforeend', '<input type="password" value="s3cret">');`;
  const error = await failure(run(page, `${made} throw new Error(document.querySelector('input').value)`));
  expect(error.code).toBe('PASSWORD_FIELD');
  expect(error.message).not.toContain('s3cret');
  // The field stays: the next eval is refused before it runs.
  expect((await failure(run(page, 'window.ranAfter = true'))).code).toBe('PASSWORD_FIELD');
  expect(await pageEval(page, 'typeof window.ranAfter')).toBe('undefined');
});

it('goes ahead again once the field is gone; a new document waits for its own watch to tell it quiet', async () => {
  const page = await steady();
  await pageEval(page, `document.body.insertAdjacentHTML('beforeend', '<input id="p" type="password">')`);
  expect(page.quiet.now()).toBeUndefined();
  expect((await failure(run(page, '1'))).code).toBe('PASSWORD_FIELD');
  await pageEval(page, `document.getElementById('p').remove()`);
  expect((await run(page, '2')).text).toBe('2');
  expect(page.quiet.now()).toBeDefined();
  await pageEval(page, `location.reload()`).catch(() => undefined);
  await expect.poll(() => page.quiet.now(), { timeout: 10_000 }).toBeUndefined();
  // An eval may run before the new document has parsed its title (it waits for no load): the title once it has.
  await expect.poll(() => pageEval(page, 'document.readyState'), { timeout: 10_000 }).toBe('complete');
  expect((await run(page, 'document.title')).text).toBe('"Hello from the fixture"');
});

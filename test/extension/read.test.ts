// get_html through the real extension (as the engine's read test does in the fallback): script and style bodies are
// left out, shown by length, and the result says so.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { leavesCodeBodiesOut } from '../support/read-code-cases.js';
import { startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';
import { probePage } from './support/page-probe.js';

let linked: LinkedExtension;

beforeAll(async () => {
  linked = await startLinkedExtension();
});

afterAll(async () => {
  await linked?.close();
});

describe('get_html through the extension', () => {
  it('leaves script and style bodies out, shown by length, and says so', async () => {
    const url = linked.fixtures.url('read-code.html');
    const tab = String((await linked.run('tab_new', { url })).data?.['tab']);
    const page = await probePage(linked.browser, url);
    await leavesCodeBodiesOut({
      getHtml: (args) => linked.run('get_html', { tab, ...args }),
      asPage: (expression) => page.evaluate(expression),
    });
  });
});

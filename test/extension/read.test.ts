// get_html through the real extension (as the engine's read test does in the fallback): script and style bodies are
// left out, shown by length, and the result says so.
import { describe, it } from 'vitest';
import { leavesCodeBodiesOut } from '../support/read-code-cases.js';
import { useLinkedExtension } from './support/use-linked-extension.js';
import { probePage } from './support/page-probe.js';

const extension = useLinkedExtension();

describe('get_html through the extension', () => {
  it('leaves script and style bodies out, shown by length, and says so', async () => {
    const linked = extension();
    const url = linked.fixtures.url('read-code.html');
    const tab = String((await linked.run('tab_new', { url })).data?.['tab']);
    const page = await probePage(linked.browser, url);
    await leavesCodeBodiesOut({
      getHtml: (args) => linked.run('get_html', { tab, ...args }),
      asPage: (expression) => page.evaluate(expression),
    });
  });
});

// Selector lookups on real Chromium stay exact when open shadow roots come after a first lookup: on an element
// already there (no mutation tells it), nested, or inside a host inserted in the middle of a tool call.
import { describe, expect, it } from 'vitest';
import type { PageContext } from '../../shared/engine/page-context.js';
import { callOnElement, resolveTarget } from '../../shared/engine/targets.js';
import { failure, useEngineSuite } from '../support/engine-suite.js';

const suite = useEngineSuite();

/** Runs `work` as one tool call, as the executor brackets it: its lookups may share one walk. */
async function asOneCall<T>(page: PageContext, work: () => Promise<T>): Promise<T> {
  const end = page.frames.beginCall();
  try {
    return await work();
  } finally {
    end();
  }
}

/** Runs script in the page's own world, as the page's scripts would. */
async function inPage(page: PageContext, expression: string): Promise<void> {
  await page.cdp.send('Runtime.evaluate', { expression, returnByValue: true });
}

async function idOf(page: PageContext, selector: string): Promise<string> {
  const handle = await resolveTarget(page, { selector });
  return (await callOnElement(page, handle, 'elementHtml', [200])).text;
}

describe('selector lookups and late shadow roots', () => {
  it('finds a match in nested roots attached to an element already looked past, and reports the duplicate', async () => {
    const { page } = await suite.browser.open(suite.server.url('shadow-late.html'));
    await asOneCall(page, async () => {
      expect(await idOf(page, '.dup')).toContain('id="light"');
      expect((await failure(resolveTarget(page, { selector: '#deep' }))).code).toBe('NOT_FOUND');
    });
    // No mutation in the document tells of a root attached to #host, nor of what goes into it.
    await inPage(
      page,
      `const outer = document.getElementById('host').attachShadow({ mode: 'open' });
       outer.innerHTML = '<span id="nest"></span>';
       outer.getElementById('nest').attachShadow({ mode: 'open' }).innerHTML = '<button class="dup" id="deep">Deep</button>';`,
    );
    await asOneCall(page, async () => {
      expect(await idOf(page, '#deep')).toContain('Deep');
      const ambiguous = await failure(resolveTarget(page, { selector: '.dup' }));
      expect(ambiguous.code).toBe('AMBIGUOUS');
      expect(ambiguous.message).toContain('2 elements match');
    });
  });

  it('sees, later in the same call, a host inserted after its first lookup', async () => {
    const { page } = await suite.browser.open(suite.server.url('shadow-late.html'));
    await asOneCall(page, async () => {
      expect(await idOf(page, '.dup')).toContain('id="light"');
      await inPage(
        page,
        `const late = document.createElement('section');
         late.attachShadow({ mode: 'open' }).innerHTML = '<button class="dup" id="late">Late</button>';
         document.body.append(late);`,
      );
      expect((await failure(resolveTarget(page, { selector: '.dup' }))).code).toBe('AMBIGUOUS');
      expect(await idOf(page, '#late')).toContain('Late');
    });
  });
});

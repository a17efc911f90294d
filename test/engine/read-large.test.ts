// get_text on a page too big to read whole: the walk stops once it holds what is asked, says more follows without a
// count, and what it gives is exactly the start of the whole page's text, at several sizes asked.
import { describe, expect, it } from 'vitest';
import { getText } from '../../shared/engine/ops/read.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';

const suite = useEngineSuite();

describe('get_text of a 20,000-element page', () => {
  it('stops after maxChars, and the text is the start of the whole text', async () => {
    const { page } = await suite.browser.open(suite.server.url('bench-sized.html?n=20000'));
    const whole = await getText(page, { maxChars: 10_000_000 }, ctx);
    expect(whole.data).toEqual({ chars: whole.text.length });
    expect(whole.text.length).toBeGreaterThan(100_000);

    for (const maxChars of [500, 8_000, 60_000]) {
      const cut = await getText(page, { maxChars }, ctx);
      const [head, note] = cut.text.split('\n…truncated; ');
      expect(head).toBe(whole.text.slice(0, maxChars));
      expect(note).toBe(
        'more follows (not counted on a page this large; raise maxChars, or read one part with a ref or selector).',
      );
      expect(cut.data).toEqual({ chars: maxChars, truncated: true, more: true });
    }
  });
});

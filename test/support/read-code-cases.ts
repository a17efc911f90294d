// The get_html case both backends run (engine read.test.ts, extension read.test.ts): on read-code.html, the bodies of
// scripts and styles, where an app keeps its secrets, are left out and shown by length, and the result says so.
import { expect } from 'vitest';
import type { OperationResult } from '../../shared/protocol/operations.js';

export interface HtmlTab {
  /** get_html on the tab showing read-code.html. */
  getHtml(args: { selector?: string }): Promise<OperationResult>;
  /** `expression` run as the page's own code. */
  asPage(expression: string): Promise<unknown>;
}

export async function leavesCodeBodiesOut(tab: HtmlTab): Promise<void> {
  const planted = [
    'Script-Set-Pw-93kq',
    'tok_Stored_By_Script_x81',
    'Svg-Script-Secret-44',
    'style-body-marker',
    'svg-style-marker',
  ];
  const whole = await tab.getHtml({});
  for (const secret of planted) expect(whole.text).not.toContain(secret);
  expect(whole.text).toMatch(
    /<head><title>Read code<\/title>\n<style>… \d+ chars<\/style>\n<script>… \d+ chars<\/script>\n<script src="\/mcp-hello.js"><\/script>/,
  );
  expect(whole.text).toMatch(/<svg><script>… \d+ chars<\/script><style>… \d+ chars<\/style><\/svg>/);
  expect(whole.text).toContain('(4 script and style bodies left out, shown by length');
  expect(whole.data).toMatchObject({ omitted: 4 });
  const one = await tab.getHtml({ selector: 'head > script:not([src])' });
  expect(one.text.split('\n')[0]).toMatch(/^<script>… \d+ chars<\/script>$/);
  expect(one.text).toContain('(1 script or style body left out');
  // A script that writes its own end tag into its text is still cut as one.
  await tab.asPage(
    `document.body.append(Object.assign(document.createElement('script'), { type: 'text/x', text: 'a</script><b>Tail-Secret-7</b>' }))`,
  );
  expect((await tab.getHtml({})).text).not.toContain('Tail-Secret-7');
}

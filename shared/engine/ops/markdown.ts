// read_as_markdown: one frame's main content as Markdown (shared/engine/markdown.ts), capped with the way to read on.
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { ReadAsMarkdownArgs } from '../../tools/args.js';
import { toMarkdown } from '../markdown.js';
import type { PageContext } from '../page-context.js';
import { capOf, capped, oneFrame } from './read.js';

const MARKDOWN_MAX_CHARS = 12_000;
// The most HTML a frame hands over: a page past it is read up to it, and the answer says so.
const HTML_MAX_CHARS = 3_000_000;

export async function readAsMarkdown(
  page: PageContext,
  args: ReadAsMarkdownArgs,
  _ctx: OperationContext,
): Promise<OperationResult> {
  const maxChars = capOf(args.maxChars, MARKDOWN_MAX_CHARS);
  const { frame, frames } = await oneFrame(page, args.frame);
  const shown = await page.frames.call(frame, 'readableHtml', [HTML_MAX_CHARS]);
  const markdown = toMarkdown(shown.html, shown.title);
  const all = markdown.text.length;
  const next = `call read_as_markdown with maxChars=${all}${args.frame === undefined ? '' : ` frame=${frame.ordinal}`} to read them`;
  const result = capped({ text: markdown.text, total: all }, maxChars, next);
  if (shown.cut) result.text += `\n(The page is longer than read_as_markdown reads: only its first part was read.)`;
  if (!markdown.article) result.text += `\n(No main article found: this is all the page shows.)`;
  // Each frame is its own document; the model learns there are more rather than paying for ads and widgets.
  const others = frames.filter((other) => other !== frame && other.unreadable === undefined);
  if (args.frame === undefined && others.length > 0) {
    const list = others.map((other) => other.ordinal).join(', ');
    result.text += `\n(Frames ${list} are not included: read_as_markdown frame=N reads one.)`;
  }
  return { ...result, data: { ...result.data, article: markdown.article } };
}

// get_text and get_html: a page's (every readable frame's) text or a frame's HTML, or one element's; capped with a clear note.
import { ToolError } from '../../protocol/errors.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { GetHtmlArgs, GetTextArgs } from '../../tools/args.js';
import type { Frame } from '../frames.js';
import type { PageContext } from '../page-context.js';
import type { TextSlice } from '../page/text.js';
import { callOnElement, framesFor, resolveTarget } from '../targets.js';
import { perFrame, urlWithoutQuery } from './per-frame.js';

const TEXT_MAX_CHARS = 8_000;
const HTML_MAX_CHARS = 20_000;

type ReadArgs = GetTextArgs | GetHtmlArgs;

/** Text of one element (a field's value, a select's choice and options), or of the page with each readable frame after it. */
export async function getText(page: PageContext, args: GetTextArgs, _ctx: OperationContext): Promise<OperationResult> {
  const maxChars = capOf(args.maxChars, TEXT_MAX_CHARS);
  if (namesElement(args)) return capped(await readElement(page, args, 'elementText', maxChars), maxChars);
  const frames = args.frame === undefined ? await page.frames.list() : await framesFor(page, args.frame);
  const outcomes = await perFrame(frames, (frame) => page.frames.call(frame, 'pageText', [maxChars]));
  // Each frame under a header when there are several; empty ones (hidden iframes, blank ads) are left out.
  const shown = outcomes.filter(({ frame, value }) => frame.ordinal === 0 || !value || value.text.trim() !== '');
  const parts = shown.map(({ frame, value, error }) => {
    const header =
      shown.length > 1 || frame.ordinal !== 0
        ? `[frame ${frame.ordinal} ${urlWithoutQuery(frame.url)}${error === undefined ? '' : ` not readable: ${error}`}]\n`
        : '';
    return { text: header + (value?.text ?? ''), total: header.length + (value?.total ?? 0), more: value?.more };
  });
  const separator = '\n\n';
  const text = parts.map((part) => part.text).join(separator);
  const total = parts.reduce((sum, part) => sum + part.total, 0) + separator.length * Math.max(0, parts.length - 1);
  return capped({ text, total, ...(parts.some((part) => part.more) ? { more: true as const } : {}) }, maxChars);
}

/** Outer HTML of one element, or of one frame's document (the main frame unless `frame`); password values masked. */
export async function getHtml(page: PageContext, args: GetHtmlArgs, _ctx: OperationContext): Promise<OperationResult> {
  const maxChars = capOf(args.maxChars, HTML_MAX_CHARS);
  if (namesElement(args)) return withCodeNote(await readElement(page, args, 'elementHtml', maxChars), maxChars);
  const { frame, frames } = await oneFrame(page, args.frame);
  const result = withCodeNote(await page.frames.call(frame, 'pageHtml', [maxChars]), maxChars);
  if (args.frame === undefined && frames.length > 1)
    result.text += `\n(This is frame 0; each frame is its own document: get_html frame=N reads frame N, frames lists them.)`;
  return result;
}

/** The one frame `spec` names (the main frame when none), and every frame there is when none is named. */
export async function oneFrame(
  page: PageContext,
  spec: number | string | undefined,
): Promise<{ frame: Frame; frames: Frame[] }> {
  const frames = await framesFor(page, spec);
  if (spec !== undefined && frames.length > 1) {
    throw new ToolError(
      'AMBIGUOUS',
      `frame ${JSON.stringify(spec)} matches frames ${frames.map((frame) => frame.ordinal).join(', ')}; pass its index.`,
    );
  }
  return { frame: frames[0]!, frames };
}

/** HTML capped, and saying how many script and style bodies it left out (page/text.ts withoutCode says why). */
function withCodeNote(slice: TextSlice, maxChars: number): OperationResult {
  const result = capped(slice, maxChars);
  if (!slice.omitted) return result;
  const bodies = slice.omitted === 1 ? '1 script or style body' : `${slice.omitted} script and style bodies`;
  result.text += `\n(${bodies} left out, shown by length: a page's code holds values it never shows. get_text reads what it shows.)`;
  return { ...result, data: { ...result.data, omitted: slice.omitted } };
}

function namesElement(args: ReadArgs): boolean {
  return args.ref !== undefined || args.selector !== undefined || args.role !== undefined || args.name !== undefined;
}

async function readElement(
  page: PageContext,
  args: ReadArgs,
  reader: 'elementText' | 'elementHtml',
  maxChars: number,
): Promise<TextSlice> {
  const handle = await resolveTarget(page, args);
  try {
    return await callOnElement(page, handle, reader, [maxChars]);
  } finally {
    page.frames.release(handle.frame, [handle.objectId]);
  }
}

export function capOf(asked: number | undefined, fallback: number): number {
  return Math.max(1, Math.floor(asked ?? fallback));
}

/** The slice cut to maxChars, saying how much is left and `next`, the way to read it, when it was cut. */
export function capped(
  slice: TextSlice,
  maxChars: number,
  next = 'raise maxChars, or read one part with a ref or selector',
): OperationResult {
  const text = slice.text.slice(0, maxChars);
  // A big page's walk stops after what is shown: the rest is not counted, so reading its start stays fast.
  if (slice.more)
    return {
      text: `${text}\n…truncated; more follows (not counted on a page this large; ${next}).`,
      data: { chars: text.length, truncated: true, more: true },
    };
  const more = slice.total - text.length;
  if (more <= 0) return { text, data: { chars: text.length } };
  return {
    text: `${text}\n…truncated, ${more.toLocaleString('en-US')} more chars (${next}).`,
    data: { chars: text.length, total: slice.total, truncated: true },
  };
}

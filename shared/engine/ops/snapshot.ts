// snapshot: the outline of the page with every readable frame in place under its iframe, paged by lines and a character budget.
import { ToolError } from '../../protocol/errors.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { SnapshotArgs } from '../../tools/args.js';
import type { Frame } from '../frames.js';
import type { PageContext } from '../page-context.js';
import { framesFor } from '../targets.js';
import { urlWithoutQuery } from './per-frame.js';
import { walkFrames, type FrameWalk } from './walk-frames.js';

const DEFAULT_LIMIT = 400;
// About 6,000 tokens: without an explicit limit a page of the outline stays affordable on any site; offset and find reach the rest.
const CHAR_BUDGET = 24_000;
const URL_MAX = 200;

interface Stitched {
  lines: string[];
  placed: Set<string>;
  cut: boolean;
}

export async function snapshot(
  page: PageContext,
  args: SnapshotArgs,
  _ctx: OperationContext,
): Promise<OperationResult> {
  const known = await page.frames.list();
  const roots = args.frame === undefined ? known.slice(0, 1) : await framesFor(page, args.frame);
  // Asked for one frame by name: its refusal is the answer (and, for a site not decided yet, the person is asked).
  if (roots.length === 1) page.frames.require(roots[0]!, 'read');
  const walks = await walkFrames(page, framesUnder(known, roots), known);
  const single = roots.length === 1 ? walks.get(roots[0]!.frameId)! : undefined;
  if (single && !single.outline) {
    throw new ToolError(
      'FRAME_UNREADABLE',
      `Frame ${single.frame.ordinal} (${urlWithoutQuery(single.frame.url)}) cannot be read: ${single.error}.`,
    );
  }

  const out: Stitched = { lines: [], placed: new Set(roots.map((frame) => frame.frameId)), cut: false };
  for (const root of roots) {
    const walk = walks.get(root.frameId)!;
    if (single) {
      stitch(walk, walks, '', out);
    } else if (walk.outline) {
      out.lines.push(`- frame ${root.ordinal} ${JSON.stringify(walk.outline.title)} ${urlWithoutQuery(root.url)}:`);
      stitch(walk, walks, '  ', out);
    } else {
      out.lines.push(`- frame ${root.ordinal} ${urlWithoutQuery(root.url)} [not readable: ${walk.error}]`);
    }
  }
  // Frames with no place in the outline (hidden iframe, or inside an unreadable frame) are still named, never dropped.
  for (const walk of walks.values()) {
    if (out.placed.has(walk.frame.frameId)) continue;
    const where = `frame ${walk.frame.ordinal} ${urlWithoutQuery(walk.frame.url)}`;
    out.lines.push(
      walk.outline
        ? `- iframe [${where}, not in the outline: its iframe is hidden or inside an unreadable frame; snapshot frame=${walk.frame.ordinal} reads it]`
        : `- iframe [${where} not readable: ${walk.error}]`,
    );
  }

  const total = out.lines.length;
  const offset = Math.max(0, Math.floor(args.offset ?? 0));
  const limit = Math.max(1, Math.floor(args.limit ?? DEFAULT_LIMIT));
  const end = pageEnd(out.lines, offset, limit, args.limit === undefined ? CHAR_BUDGET : Infinity);
  const unreadable = [...walks.values()].filter((walk) => walk.error !== undefined);

  const text: string[] = [heading(roots, walks, args.frame)];
  if (offset > 0 || end < total) text.push(`Lines ${Math.min(offset + 1, total)}–${end} of ${total}.`);
  if (unreadable.length > 0) {
    text.push(
      `Not readable: ${unreadable.map((walk) => `frame ${walk.frame.ordinal} (${urlWithoutQuery(walk.frame.url)}): ${walk.error}`).join('; ')}.`,
    );
  }
  if (offset >= total && total > 0) text.push(`Offset ${offset} is past the end: the outline has ${total} lines.`);
  text.push(...out.lines.slice(offset, end));
  if (end < total) {
    const frameArg = args.frame === undefined ? '' : ` frame=${JSON.stringify(args.frame)}`;
    text.push(
      `… ${(total - end).toLocaleString('en-US')} more lines: snapshot${frameArg} offset=${end} for the next part, or find text="…" to jump to one element.`,
    );
  }
  if (out.cut) text.push('(Texts longer than 300 chars end in "…"; get_text reads them whole.)');
  return {
    text: text.join('\n'),
    data: {
      totalLines: total,
      offset,
      shown: Math.max(0, end - offset),
      frames: walks.size,
      unreadable: unreadable.map((walk) => walk.frame.ordinal),
    },
  };
}

/** The roots and every frame below them, in tree order. */
function framesUnder(known: Frame[], roots: Frame[]): Frame[] {
  const inside = new Set(roots.map((frame) => frame.frameId));
  return known.filter((frame) => {
    if (!inside.has(frame.frameId) && !(frame.parentFrameId && inside.has(frame.parentFrameId))) return false;
    inside.add(frame.frameId);
    return true;
  });
}

/** Copies a frame's lines, splicing each child frame's outline in under its iframe line. */
function stitch(walk: FrameWalk, walks: Map<string, FrameWalk>, pad: string, out: Stitched): void {
  const outline = walk.outline!;
  out.cut ||= outline.cut;
  const owners = new Map(outline.owners);
  outline.lines.forEach((line, index) => {
    const owner = owners.get(index);
    const frame = owner === undefined ? undefined : walk.owners.get(owner);
    const child = frame && walks.get(frame.frameId);
    if (owner === undefined) {
      out.lines.push(pad + line);
    } else if (!frame || !child) {
      out.lines.push(`${pad}${line} [frame not attached yet: call snapshot again]`);
    } else if (!child.outline) {
      out.placed.add(frame.frameId);
      out.lines.push(`${pad}${line} [frame ${frame.ordinal} not readable: ${child.error}]`);
    } else {
      out.placed.add(frame.frameId);
      out.lines.push(`${pad}${line} [frame ${frame.ordinal}]${child.outline.lines.length > 0 ? ':' : ''}`);
      stitch(child, walks, `${pad}${/^ */.exec(line)![0]}  `, out);
    }
  });
}

/** Index after the last line shown: at most `limit` lines and, for the default page, at most `budget` characters. */
function pageEnd(lines: string[], offset: number, limit: number, budget: number): number {
  let end = offset;
  let chars = 0;
  while (end < lines.length && end - offset < limit) {
    chars += lines[end]!.length + 1;
    if (chars > budget && end > offset) break;
    end += 1;
  }
  return end;
}

function heading(roots: Frame[], walks: Map<string, FrameWalk>, spec: number | string | undefined): string {
  if (roots.length > 1)
    return `Frames ${roots.map((frame) => frame.ordinal).join(', ')} (matching ${JSON.stringify(spec)}):`;
  const root = roots[0]!;
  const title = JSON.stringify(walks.get(root.frameId)?.outline?.title ?? '');
  // A data: or blob: URL can be the whole document; the header only needs to say where we are.
  const url = root.ordinal === 0 ? root.url : urlWithoutQuery(root.url);
  return `${root.ordinal === 0 ? 'Page' : `Frame ${root.ordinal}`} ${title} ${url.length > URL_MAX ? `${url.slice(0, URL_MAX)}…` : url}`;
}

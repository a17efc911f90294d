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
  /** The stitched outline from its start, as far as every frame's lines reach (see `stitch`). */
  lines: string[];
  cut: boolean;
  /** A frame's lines ran out before its outline did: lines after that point are not known. */
  stopped: boolean;
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
  const offset = Math.max(0, Math.floor(args.offset ?? 0));
  const limit = Math.max(1, Math.floor(args.limit ?? DEFAULT_LIMIT));
  // One line past the page says whether more follow; every frame's first `want` lines hold all of the page (a frame
  // placed further down contributes fewer), so the walks can stop there.
  const want = offset + limit + 1;
  const walks = await walkFrames(page, framesUnder(known, roots), known, Number.isSafeInteger(want) ? want : null);
  const single = roots.length === 1 ? walks.get(roots[0]!.frameId)! : undefined;
  if (single && !single.outline) {
    throw new ToolError(
      'FRAME_UNREADABLE',
      `Frame ${single.frame.ordinal} (${urlWithoutQuery(single.frame.url)}) cannot be read: ${single.error}.`,
    );
  }

  const out: Stitched = { lines: [], cut: false, stopped: false };
  const placed = new Set(roots.map((frame) => frame.frameId));
  // The whole outline's line count, while every walk went to its end (undefined once one stopped early).
  let total: number | undefined = 0;
  for (const root of roots) {
    const walk = walks.get(root.frameId)!;
    if (single) {
      total = plus(total, place(walk, walks, placed));
      stitch(walk, walks, '', out);
    } else if (walk.outline) {
      total = plus(total, 1);
      total = plus(total, place(walk, walks, placed));
      if (out.stopped) continue;
      out.lines.push(`- frame ${root.ordinal} ${JSON.stringify(walk.outline.title)} ${urlWithoutQuery(root.url)}:`);
      stitch(walk, walks, '  ', out);
    } else {
      total = plus(total, 1);
      if (!out.stopped)
        out.lines.push(`- frame ${root.ordinal} ${urlWithoutQuery(root.url)} [not readable: ${walk.error}]`);
    }
  }
  // Frames with no place in the outline (hidden iframe, or inside an unreadable frame) are still named, never dropped.
  // Which frames have a place is known only once every walk went to its end; until then they wait past the lines shown.
  if (total !== undefined) {
    for (const walk of walks.values()) {
      if (placed.has(walk.frame.frameId)) continue;
      total = plus(total, 1);
      if (out.stopped) continue;
      const where = `frame ${walk.frame.ordinal} ${urlWithoutQuery(walk.frame.url)}`;
      out.lines.push(
        walk.outline
          ? `- iframe [${where}, not in the outline: its iframe is hidden or inside an unreadable frame; snapshot frame=${walk.frame.ordinal} reads it]`
          : `- iframe [${where} not readable: ${walk.error}]`,
      );
    }
  }

  const end = pageEnd(out.lines, offset, limit, args.limit === undefined ? CHAR_BUDGET : Infinity);
  const more = total === undefined || end < total;
  const unreadable = [...walks.values()].filter((walk) => walk.error !== undefined);

  const text: string[] = [heading(roots, walks, args.frame)];
  if (total === undefined)
    text.push(`Lines ${offset + 1}–${end}; more follow (not counted: the walk stops after the lines asked for).`);
  else if (offset > 0 || end < total) text.push(`Lines ${Math.min(offset + 1, total)}–${end} of ${total}.`);
  if (unreadable.length > 0) {
    text.push(
      `Not readable: ${unreadable.map((walk) => `frame ${walk.frame.ordinal} (${urlWithoutQuery(walk.frame.url)}): ${walk.error}`).join('; ')}.`,
    );
  }
  if (total !== undefined && offset >= total && total > 0)
    text.push(`Offset ${offset} is past the end: the outline has ${total} lines.`);
  text.push(...out.lines.slice(offset, end));
  if (more) {
    const frameArg = args.frame === undefined ? '' : ` frame=${JSON.stringify(args.frame)}`;
    const howMany = total === undefined ? '' : ` ${(total - end).toLocaleString('en-US')}`;
    text.push(
      `…${howMany} more lines: snapshot${frameArg} offset=${end} for the next part, or find text="…" to jump to one element.`,
    );
  }
  if (out.cut) text.push('(Texts longer than 300 chars end in "…"; get_text reads them whole.)');
  return {
    text: text.join('\n'),
    data: {
      // Absent when the walk stopped past the page shown: `more` then says lines follow.
      totalLines: total,
      more,
      offset,
      shown: Math.max(0, end - offset),
      frames: walks.size,
      unreadable: unreadable.map((walk) => walk.frame.ordinal),
    },
  };
}

/** A line count plus another, either unknown when one is. */
function plus(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined ? undefined : a + b;
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

/** The frame each iframe line of `walk` shows, with its walk; undefined when none is known. */
function childOf(walk: FrameWalk, walks: Map<string, FrameWalk>, owner: number) {
  const frame = walk.owners.get(owner);
  const child = frame && walks.get(frame.frameId);
  return frame && child ? { frame, child } : undefined;
}

/**
 * Marks the frames placed under `walk`'s iframes, shown or not, and returns how many lines its outline has with
 * theirs spliced in; undefined when a walk stopped early, so the count is not known.
 */
function place(walk: FrameWalk, walks: Map<string, FrameWalk>, placed: Set<string>): number | undefined {
  const outline = walk.outline!;
  let total = outline.total ?? undefined;
  for (const [, owner] of outline.owners) {
    const shown = childOf(walk, walks, owner);
    if (!shown) continue;
    placed.add(shown.frame.frameId);
    if (!shown.child.outline) continue;
    const inside = place(shown.child, walks, placed);
    total = plus(total, inside);
  }
  return total;
}

/**
 * Copies a frame's lines, splicing each child frame's outline in under its iframe line, until a frame's lines run out
 * before its outline does. Every frame sent at least the lines a page needs, so what is copied covers the page.
 */
function stitch(walk: FrameWalk, walks: Map<string, FrameWalk>, pad: string, out: Stitched): void {
  const outline = walk.outline!;
  out.cut ||= outline.cut;
  const owners = new Map(outline.owners);
  for (const [index, line] of outline.lines.entries()) {
    if (out.stopped) return;
    const owner = owners.get(index);
    const shown = owner === undefined ? undefined : childOf(walk, walks, owner);
    if (owner === undefined) {
      out.lines.push(pad + line);
    } else if (!shown) {
      out.lines.push(`${pad}${line} [frame not attached yet: call snapshot again]`);
    } else if (!shown.child.outline) {
      out.lines.push(`${pad}${line} [frame ${shown.frame.ordinal} not readable: ${shown.child.error}]`);
    } else {
      out.lines.push(`${pad}${line} [frame ${shown.frame.ordinal}]${shown.child.outline.lines.length > 0 ? ':' : ''}`);
      stitch(shown.child, walks, `${pad}${/^ */.exec(line)![0]}  `, out);
    }
  }
  if (outline.total !== outline.lines.length) out.stopped = true;
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

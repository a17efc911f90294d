// extract_links: the shown links of every readable frame, each href once, in page order, up to a limit.
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { ExtractLinksArgs } from '../../tools/args.js';
import type { PageContext } from '../page-context.js';
import type { PageLink } from '../page/readable.js';
import { framesFor } from '../targets.js';
import { perFrame, urlWithoutQuery } from './per-frame.js';

const DEFAULT_LIMIT = 100;

export async function extractLinks(
  page: PageContext,
  args: ExtractLinksArgs,
  _ctx: OperationContext,
): Promise<OperationResult> {
  const limit = Math.max(1, Math.floor(args.limit ?? DEFAULT_LIMIT));
  const frames = await framesFor(page, args.frame);
  const outcomes = await perFrame(frames, (frame) =>
    page.frames.call(frame, 'pageLinks', [args.filter ?? null, limit]),
  );
  const seen = new Set<string>();
  const lines: string[] = [];
  let shown = 0;
  let total = 0;
  for (const { frame, value, error } of outcomes) {
    const header = `[frame ${frame.ordinal} ${urlWithoutQuery(frame.url)}`;
    if (error !== undefined) {
      lines.push(`${header} not readable: ${error}]`);
      continue;
    }
    // A link another frame already listed is the same place: counted and shown once.
    const fresh = value.links.filter((link) => !seen.has(link.href));
    total += value.total - (value.links.length - fresh.length);
    const room = fresh.slice(0, Math.max(0, limit - shown));
    if (room.length > 0 && frame.ordinal !== 0) lines.push(`${header}]`);
    for (const link of room) {
      seen.add(link.href);
      lines.push(line(link));
    }
    shown += room.length;
  }
  const filtered = args.filter === undefined ? '' : ` matching ${JSON.stringify(args.filter)}`;
  if (shown === 0) lines.unshift(`No shown links${filtered}.`);
  if (total > shown) {
    const more = total - shown;
    lines.push(`…${more} more link${more === 1 ? '' : 's'} (raise limit, or narrow with filter).`);
  }
  return { text: lines.join('\n'), data: { shown, total } };
}

function line(link: PageLink): string {
  const text = link.text.replace(/[[\]]/g, '').trim();
  return text ? `- [${text}](${link.href})` : `- <${link.href}>`;
}

// find: elements by visible text, role, name or selector in every readable frame, each shown in its row or list item with refs.
import { ToolError } from '../../protocol/errors.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { FindArgs } from '../../tools/args.js';
import type { PageContext } from '../page-context.js';
import type { FindSpec } from '../page/text.js';
import { framesFor } from '../targets.js';
import { perFrame, refPrefix, urlWithoutQuery } from './per-frame.js';

const DEFAULT_LIMIT = 20;

export async function find(page: PageContext, args: FindArgs, _ctx: OperationContext): Promise<OperationResult> {
  const spec: FindSpec = { text: args.text, role: args.role, name: args.name, selector: args.selector };
  const asked = Object.entries(spec).filter(([, value]) => value !== undefined && value.trim() !== '');
  if (asked.length === 0) throw new ToolError('BAD_ARGS', 'find needs at least one of text, role, name or selector.');
  const limit = Math.max(1, Math.floor(args.limit ?? DEFAULT_LIMIT));
  const frames = await framesFor(page, args.frame);
  const start = page.refCounter.n;
  const outcomes = await perFrame(frames, (frame) =>
    page.frames.call(frame, 'findElements', [spec, limit, refPrefix(frame), start]),
  );

  const what = asked.map(([key, value]) => `${key} ${JSON.stringify(value)}`).join(', ');
  const found = outcomes.filter((outcome) => outcome.value && outcome.value.total > 0);
  const total = found.reduce((sum, outcome) => sum + outcome.value!.total, 0);
  const lines: string[] = [];
  let shown = 0;
  for (const { frame, value } of found) {
    page.refCounter.n = Math.max(page.refCounter.n, value!.counter);
    const take = value!.matches.slice(0, limit - shown);
    if (take.length === 0) continue;
    // Refs carry their frame already; the heading says where text-only matches are.
    if (found.length > 1 || frame.ordinal !== 0)
      lines.push(`in frame ${frame.ordinal} (${urlWithoutQuery(frame.url)}):`);
    lines.push(...take);
    shown += take.length;
  }
  const summary =
    total === 0
      ? `No element matches ${what}${frames.length > 1 ? ` in ${frames.length} frames` : ''}. Try a shorter text, or snapshot to see the page.`
      : `${total} match${total === 1 ? '' : 'es'} for ${what}${shown < total ? `; showing ${shown}: raise limit, or narrow with role, name or frame` : ''}:`;
  const failed = outcomes.filter((outcome) => outcome.error !== undefined);
  const notes = failed.map(
    (outcome) =>
      `Not searched: frame ${outcome.frame.ordinal} (${urlWithoutQuery(outcome.frame.url)}): ${outcome.error}.`,
  );
  return {
    text: [summary, ...lines, ...notes].join('\n'),
    data: { total, shown, unreadable: failed.map((outcome) => outcome.frame.ordinal) },
  };
}

// frames: one line per frame of the tab: index, parent, origin, URL without query, readable or why not, visible controls.
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { FramesArgs } from '../../tools/args.js';
import type { PageContext } from '../page-context.js';
import { perFrame, urlWithoutQuery } from './per-frame.js';

interface FrameRow {
  frame: number;
  parent: number | undefined;
  origin: string;
  url: string;
  readable: boolean;
  controls?: number;
  reason?: string;
  hidden: boolean;
  outOfProcess: boolean;
}

export async function frames(page: PageContext, _args: FramesArgs, _ctx: OperationContext): Promise<OperationResult> {
  const list = await page.frames.list();
  const ordinals = new Map(list.map((frame) => [frame.frameId, frame.ordinal]));
  const outcomes = await perFrame(list, (frame) => page.frames.call(frame, 'frameInfo'));
  const rows = outcomes.map(({ frame, value, error }): FrameRow => ({
    frame: frame.ordinal,
    parent: frame.parentFrameId === undefined ? undefined : ordinals.get(frame.parentFrameId),
    origin: value?.origin ?? originOf(frame.url),
    url: urlWithoutQuery(frame.url),
    readable: error === undefined,
    controls: value?.controls,
    reason: error,
    hidden: value?.hidden ?? false,
    outOfProcess: frame.sessionId !== undefined,
  }));
  const lines = rows.map((row) =>
    [
      `- frame ${row.frame}`,
      row.parent === undefined ? 'top' : `parent=${row.parent}`,
      `origin=${row.origin}`,
      `url=${row.url}`,
      row.readable ? `readable controls=${row.controls}` : `not readable: ${row.reason}`,
      ...(row.hidden ? ['hidden'] : []),
      ...(row.outOfProcess ? ['out-of-process'] : []),
    ].join(' '),
  );
  return {
    text: [`${rows.length} frame${rows.length === 1 ? '' : 's'} (refs in frame N start with fN):`, ...lines].join('\n'),
    data: { frames: rows },
  };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}

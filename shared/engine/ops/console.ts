// console: the tab's captured console lines, filtered by level, frame and seq, each judged by the policy where it
// was logged; reading costs no round trip per line (console-log.ts keeps them).
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import { CONSOLE_LEVELS } from '../../tools/devtools.js';
import type { ConsoleArgs } from '../../tools/args.js';
import type { ConsoleEntry } from '../console-log.js';
import type { PageContext } from '../page-context.js';
import { framesFor } from '../targets.js';

const DEFAULT_LIMIT = 50;
const STACK_LINES = 4;

export async function readConsole(
  page: PageContext,
  args: ConsoleArgs,
  _ctx: OperationContext,
): Promise<OperationResult> {
  await page.console.start();
  const frames = await page.frames.list();
  const ordinals = new Map(frames.map((frame) => [frame.frameId, frame.ordinal]));
  const only =
    args.frame === undefined ? undefined : new Set((await framesFor(page, args.frame)).map((f) => f.frameId));
  const least = CONSOLE_LEVELS.indexOf(args.level ?? 'log');
  const readable = page.gate.judgeEach('read');
  let omitted = 0;
  const wanted = page.console.after(args.since ?? 0).filter((entry) => {
    if (CONSOLE_LEVELS.indexOf(entry.level) < least) return false;
    if (only && (entry.frameId === undefined || !only.has(entry.frameId))) return false;
    // A line from a document the policy keeps from the model is never shown, whatever frame the page put it in.
    if (readable(entry.place)) return true;
    omitted++;
    return false;
  });
  const limit = args.limit ?? DEFAULT_LIMIT;
  const shown = wanted.slice(-limit);
  const last = page.console.last();
  const head = [
    `console: ${shown.length} line${shown.length === 1 ? '' : 's'}`,
    wanted.length > shown.length ? `, ${wanted.length - shown.length} earlier not shown (raise limit)` : '',
    omitted > 0 ? `, ${omitted} from sites the policy keeps from you left out` : '',
    `; since=${last} reads only newer ones`,
  ].join('');
  return {
    text: [head, ...shown.map((entry) => line(entry, ordinals))].join('\n'),
    data: { last, shown: shown.length, omitted },
  };
}

function line(entry: ConsoleEntry, ordinals: ReadonlyMap<string, number>): string {
  const ordinal = entry.frameId === undefined ? undefined : ordinals.get(entry.frameId);
  const where =
    entry.frameId === undefined && entry.sessionId !== undefined ? ' worker' : ordinal ? ` f${ordinal}` : '';
  const source = entry.source ? ` ${entry.source}` : '';
  return `#${entry.seq} ${entry.level}${where}${source}: ${indented(entry.text)}`;
}

/** An error's stack stays under its line, indented, and only its first frames: the rest is the framework's. */
function indented(text: string): string {
  const [first, ...rest] = text.split('\n');
  const kept = rest.slice(0, STACK_LINES).map((line) => `  ${line.trim()}`);
  if (rest.length > STACK_LINES) kept.push(`  … ${rest.length - STACK_LINES} more`);
  return [first, ...kept].join('\n');
}

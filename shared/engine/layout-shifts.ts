// CLS from a trace's layout shifts: the worst burst (session window) of the page's own shifts, and the elements that
// moved most in it. Our presence pill (page/indicator.ts) is the engine's, not the page's: its shifts do not count.
import type { Frame } from './frame.js';
import { nodeLabel } from './node-label.js';
import type { PageContext } from './page-context.js';
import type { LayoutShift } from './trace-digest.js';

/** CLS counts the worst burst of shifts: each under a second apart, five seconds at most (web.dev/cls). */
const WINDOW_GAP_US = 1_000_000;
const WINDOW_US = 5_000_000;
/** The element page/indicator.ts puts in the top document. */
const OUR_PILL = 'chrome-mcp-indicator';
/** Elements named per trace: the ones that moved most (a page has few; a huge one is not named in full). */
const MAX_LABELS = 20;
const SHOWN = 3;

export interface ClsFinding {
  score: number;
  /** Shifts in the worst window. */
  shifts: number;
  /** What moved most in it, most first: label (fN for an iframe's) and its share of the score. */
  moved: { label: string; score: number }[];
}

export async function clsFinding(
  page: PageContext,
  shifts: readonly LayoutShift[],
  frameOf: (frameId: string) => Frame | undefined,
): Promise<ClsFinding> {
  const labels = await labelsOf(page, shifts, frameOf);
  const ours = (shift: LayoutShift) =>
    shift.nodes.length > 0 && shift.nodes.every((node) => labels.get(keyOf(shift, node))?.startsWith(OUR_PILL));
  const worst = worstWindow(shifts.filter((shift) => !ours(shift)));
  const moved = new Map<string, number>();
  for (const shift of worst.shifts)
    for (const node of shift.nodes) {
      const label = labels.get(keyOf(shift, node)) ?? 'an element';
      if (!label.startsWith(OUR_PILL)) moved.set(label, (moved.get(label) ?? 0) + shift.score);
    }
  return {
    score: worst.score,
    shifts: worst.shifts.length,
    moved: [...moved.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, SHOWN)
      .map(([label, score]) => ({ label, score })),
  };
}

/** Labels of the elements that moved most overall, by frame and node id. */
async function labelsOf(
  page: PageContext,
  shifts: readonly LayoutShift[],
  frameOf: (frameId: string) => Frame | undefined,
): Promise<Map<string, string>> {
  const scores = new Map<string, { frameId: string; node: number; score: number }>();
  for (const shift of shifts)
    for (const node of shift.nodes) {
      const key = keyOf(shift, node);
      const known = scores.get(key) ?? { frameId: shift.frameId, node, score: 0 };
      known.score += shift.score;
      scores.set(key, known);
    }
  const most = [...scores.entries()].sort((a, b) => b[1].score - a[1].score).slice(0, MAX_LABELS);
  const labels = await Promise.all(
    most.map(async ([key, { frameId, node }]) => {
      const frame = frameOf(frameId);
      const label = await nodeLabel(page, node, frame?.sessionId);
      const where = frame && frame.ordinal > 0 ? ` (f${frame.ordinal})` : '';
      return [key, label === undefined ? undefined : `${label}${where}`] as const;
    }),
  );
  return new Map(labels.filter((entry): entry is readonly [string, string] => entry[1] !== undefined));
}

function keyOf(shift: LayoutShift, node: number): string {
  return `${shift.frameId}:${node}`;
}

/** The worst burst of shifts (session window) and its score: that is CLS. */
function worstWindow(shifts: readonly LayoutShift[]): { score: number; shifts: LayoutShift[] } {
  let best = { score: 0, shifts: [] as LayoutShift[] };
  let current = { score: 0, shifts: [] as LayoutShift[] };
  for (const shift of shifts) {
    const first = current.shifts[0];
    const last = current.shifts.at(-1);
    if (!first || !last || shift.ts - last.ts > WINDOW_GAP_US || shift.ts - first.ts > WINDOW_US)
      current = { score: 0, shifts: [] };
    current.shifts.push(shift);
    current.score += shift.score;
    if (current.score > best.score) best = { score: current.score, shifts: [...current.shifts] };
  }
  return best;
}

// In-page snapshot of one frame: walks it (snapshot.ts), renders the lines a page needs, and keeps the iframes met so
// the engine can map each to its frame.
import type { Outline, WalkContext } from './snapshot.js';

export interface FrameOutline extends Outline {
  /** How many lines the whole outline has; null when the walk stopped once it had the lines asked for. */
  total: number | null;
  title: string;
  /** Id of this walk, to fetch its iframe elements with `snapshotOwner`. */
  walk: number;
  /** The ref counter after this walk. */
  counter: number;
}

/**
 * Walks the frame and renders it, up to the first `want` lines (null: all of them); remembers the iframes met so the
 * engine can map them to frames. Only those lines are returned; the total is counted when the walk went to the end.
 */
export function snapshotFrame(prefix: string, counter: number, want: number | null): FrameOutline {
  // A page of up to this many elements is walked whole, so its outline's length is counted ("Lines 1–400 of 673");
  // a larger one stops as soon as it holds the lines asked for, so its first page costs what those lines cost.
  const COUNTED_MAX = 5000;
  const elements = document.createTreeWalker(document, NodeFilter.SHOW_ELEMENT);
  let seen = 0;
  while (seen <= COUNTED_MAX && elements.nextNode()) seen += 1;
  const floor = seen > COUNTED_MAX ? 0 : COUNTED_MAX;
  const context: WalkContext = { prefix, counter: { n: counter }, owners: [], want: want ?? undefined, floor };
  const root = document.body ?? document.documentElement;
  const nodes = root ? __cm.snapshotBuild(root, context) : [];
  const { lines, owners, cut } = context.early ?? __cm.snapshotRender(nodes);
  const shown = want === null ? lines : lines.slice(0, want);
  // Kept per walk id so two overlapping snapshots of one frame cannot swap each other's iframes.
  const store = globalThis as unknown as { __cmWalks?: Map<number, Element[]>; __cmWalkId?: number };
  store.__cmWalks ??= new Map();
  const walk = (store.__cmWalkId = (store.__cmWalkId ?? 0) + 1);
  store.__cmWalks.set(walk, context.owners);
  store.__cmWalks.delete(walk - 8);
  return {
    lines: shown,
    // Every iframe met, shown or not: the engine counts the frames they show into the total.
    owners,
    cut,
    total: context.early ? null : lines.length,
    title: document.title,
    walk,
    counter: context.counter.n,
  };
}

/** The iframe element behind owner `index` of walk `walk`. */
export function snapshotOwner(walk: number, index: number): Element {
  const store = globalThis as unknown as { __cmWalks?: Map<number, Element[]> };
  const owner = store.__cmWalks?.get(walk)?.[index];
  if (!owner) throw new Error(`FRAME_NOT_FOUND: iframe ${index} of snapshot ${walk} is no longer known.`);
  return owner;
}

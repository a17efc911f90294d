// In-page snapshot of one frame: walks it (snapshot.ts), renders the lines a page needs, and keeps the iframes met so
// the engine can map each to its frame.
import type { Outline, SnapshotNode, WalkContext } from './snapshot.js';

export interface FrameOutline extends Outline {
  /** How many lines the whole outline has; null when the walk stopped once it had the lines asked for. */
  total: number | null;
  title: string;
  /** Id of this walk, to fetch its iframe elements with `snapshotOwner`. */
  walk: number;
  /** The ref counter after this walk. */
  counter: number;
}

/** A walk of this document kept for the next snapshot: paused past the lines it gave, or ended. */
interface SnapshotCursor {
  prefix: string;
  /** The document's stamp (snapshot-watch.ts) when the walk last ran; null before it first ran. */
  stamp: string | null;
  walk: Generator<void, SnapshotNode[], void> | null;
  context: WalkContext;
  /** The lines so far: a settled prefix of the whole outline while the walk is paused, the whole once it ended. */
  outline: Outline;
  done: boolean;
  /** The page was small enough to walk whole, so its outline's length is told. */
  counted: boolean;
}

/** How this document's snapshots were answered: by a new walk, by resuming the kept one, or by its lines alone. */
export interface SnapshotStats {
  walks: number;
  resumed: number;
  reused: number;
}

/**
 * Walks the frame and renders it, up to the first `want` lines (null: all of them); remembers the iframes met so the
 * engine can map them to frames. Only those lines are returned; the total is counted when the walk went to the end.
 * While the document's stamp holds (nothing an outline shows changed), the last walk's lines are given again, and a
 * page past them resumes that walk where it paused instead of walking the pages before it again.
 */
export function snapshotFrame(prefix: string, counter: number, want: number | null): FrameOutline {
  const store = globalThis as unknown as {
    __cmWalks?: Map<number, Element[]>;
    __cmWalkId?: number;
    __cmSnapshotCursor?: SnapshotCursor;
    __cmSnapshotStats?: SnapshotStats;
  };
  const stats = (store.__cmSnapshotStats ??= { walks: 0, resumed: 0, reused: 0 });
  let cursor = store.__cmSnapshotCursor;
  const kept =
    cursor &&
    cursor.prefix === prefix &&
    cursor.stamp !== null &&
    cursor.stamp === __cm.snapshotStamp(cursor.context, cursor.stamp) &&
    // A definition may have attached a shadow root to a custom element, which no mutation tells.
    !cursor.context.pending!.some((element) => element.shadowRoot || element.matches(':defined'));
  if (!cursor || !kept) {
    // A small page is walked whole, so its outline's length is counted ("Lines 1–400 of 673").
    const floor = __cm.walkFloor(document);
    const context: WalkContext = {
      prefix,
      counter: { n: counter },
      owners: [],
      floor,
      roots: [],
      pending: [],
      fields: [],
    };
    const root = document.body ?? document.documentElement;
    // The root's parent's cursor is read too (a pointer over the whole page makes no click target).
    context.styled = root?.parentElement ? [root.parentElement] : [];
    const walk = root ? __cm.snapshotWalk(root, context) : null;
    const outline = { lines: [], owners: [], cut: false };
    cursor = { prefix, stamp: null, walk, context, outline, done: !walk, counted: floor > 0 };
    store.__cmSnapshotCursor = cursor;
    stats.walks += 1;
  } else if (!cursor.done && (want === null || cursor.outline.lines.length < want)) {
    stats.resumed += 1;
  } else {
    stats.reused += 1;
  }
  const { context } = cursor;
  context.counter.n = Math.max(context.counter.n, counter);
  if (cursor.walk && !cursor.done && (want === null || cursor.outline.lines.length < want)) {
    context.want = want ?? undefined;
    context.early = undefined;
    const step = cursor.walk.next();
    cursor.done = !!step.done;
    cursor.outline = step.done ? __cm.snapshotRender(step.value) : context.early!;
    // Taken after the walk: it observes the shadow roots the walk entered.
    cursor.stamp = __cm.snapshotStamp(context);
  }
  const { lines, owners, cut } = cursor.outline;
  const shown = want === null ? lines : lines.slice(0, want);
  // Kept per walk id so two overlapping snapshots of one frame cannot swap each other's iframes.
  store.__cmWalks ??= new Map();
  const walk = (store.__cmWalkId = (store.__cmWalkId ?? 0) + 1);
  store.__cmWalks.set(walk, context.owners);
  store.__cmWalks.delete(walk - 8);
  return {
    lines: shown,
    // Every iframe met, shown or not: the engine counts the frames they show into the total.
    owners,
    cut,
    // A large page's walk that ended is counted only when a walk for these lines would have ended too.
    total: cursor.done && (cursor.counted || want === null || lines.length <= want) ? lines.length : null,
    title: document.title,
    walk,
    counter: context.counter.n,
  };
}

/** How this document's snapshots were answered so far (tests read it to see a walk reused). */
export function snapshotStats(): SnapshotStats {
  const store = globalThis as unknown as { __cmSnapshotStats?: SnapshotStats };
  return { ...(store.__cmSnapshotStats ?? { walks: 0, resumed: 0, reused: 0 }) };
}

/** The iframe element behind owner `index` of walk `walk`. */
export function snapshotOwner(walk: number, index: number): Element {
  const store = globalThis as unknown as { __cmWalks?: Map<number, Element[]> };
  const owner = store.__cmWalks?.get(walk)?.[index];
  if (!owner) throw new Error(`FRAME_NOT_FOUND: iframe ${index} of snapshot ${walk} is no longer known.`);
  return owner;
}

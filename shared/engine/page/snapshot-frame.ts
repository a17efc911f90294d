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
  /** Names the stamp these lines were checked against, for the engine to vouch for on the next call. */
  trust: number;
  /** Given on the engine's trust: only DOM mutations and fields were read again (see `snapshotFrame`). */
  trusted: boolean;
}

/** A walk of this document kept for the next snapshot: paused past the lines it gave, or ended. */
interface SnapshotCursor {
  prefix: string;
  /** The document's stamp (snapshot-watch.ts) when the walk last ran; null before it first ran. */
  stamp: string | null;
  /** A random name for the stamp, new each time the stamp was read whole (the engine's trust names it). */
  trust: number;
  walk: Generator<void, SnapshotNode[], void> | null;
  context: WalkContext;
  /** The lines so far: a settled prefix of the whole outline while the walk is paused, the whole once it ended. */
  outline: Outline;
  done: boolean;
  /** The page was small enough to walk whole, so its outline's length is told. */
  counted: boolean;
}

/**
 * How this document's snapshots were answered: by a new walk, by resuming the kept one, or by its lines alone, after
 * reading the whole stamp again (reused) or on the engine's trust (trusted; the engine may still turn one down).
 */
export interface SnapshotStats {
  walks: number;
  resumed: number;
  reused: number;
  trusted: number;
}

/**
 * Walks the frame and renders it, up to the first `want` lines (null: all of them); remembers the iframes met so the
 * engine can map them to frames. Only those lines are returned; the total is counted when the walk went to the end.
 * While the document's stamp holds (nothing an outline shows changed), the last walk's lines are given again, and a
 * page past them resumes that walk where it paused instead of walking the pages before it again. With `trust`, the
 * name of the stamp last checked whole, the engine vouches that no style recalc or layout ran since (snapshot-trust.ts
 * reads the renderer's counts around the call): then lines already held are given after reading only what changes
 * with neither, DOM mutations and fields, once this call has brought style and layout up to date for the engine's
 * count read after it.
 */
export function snapshotFrame(
  prefix: string,
  counter: number,
  want: number | null,
  trust: number | null,
): FrameOutline {
  const store = globalThis as unknown as {
    __cmWalks?: Map<number, Element[]>;
    __cmWalkId?: number;
    __cmSnapshotCursor?: SnapshotCursor;
    __cmSnapshotStats?: SnapshotStats;
  };
  const stats = (store.__cmSnapshotStats ??= { walks: 0, resumed: 0, reused: 0, trusted: 0 });
  let cursor = store.__cmSnapshotCursor;
  const held = (kept: SnapshotCursor) => kept.done || (want !== null && kept.outline.lines.length >= want);
  // Style and layout brought up to date: a change waiting for the next frame is counted before the engine reads.
  if (trust !== null) document.documentElement?.getBoundingClientRect();
  const usable =
    cursor &&
    cursor.prefix === prefix &&
    cursor.stamp !== null &&
    // A definition may have attached a shadow root to a custom element, which no mutation tells.
    !cursor.context.pending!.some((element) => element.shadowRoot || element.matches(':defined'));
  const trusted =
    usable &&
    trust === cursor!.trust &&
    held(cursor!) &&
    cursor!.stamp!.startsWith(`${__cm.snapshotStamp(cursor!.context, cursor!.stamp!, false)} `);
  const kept = usable && (trusted || cursor!.stamp === __cm.snapshotStamp(cursor!.context, cursor!.stamp!));
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
    cursor = { prefix, stamp: null, trust: 0, walk, context, outline, done: !walk, counted: floor > 0 };
    store.__cmSnapshotCursor = cursor;
    stats.walks += 1;
  } else if (!held(cursor)) {
    stats.resumed += 1;
  } else if (trusted) {
    stats.trusted += 1;
  } else {
    stats.reused += 1;
  }
  // Every answer but one on trust has read the whole stamp (below, or above to keep the walk): a new name for it.
  if (!trusted) cursor.trust = Math.random();
  const { context } = cursor;
  context.counter.n = Math.max(context.counter.n, counter);
  if (cursor.walk && !held(cursor)) {
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
    trust: cursor.trust,
    trusted: !!trusted,
  };
}

/** How this document's snapshots were answered so far (tests read it to see a walk reused). */
export function snapshotStats(): SnapshotStats {
  const store = globalThis as unknown as { __cmSnapshotStats?: SnapshotStats };
  return { ...(store.__cmSnapshotStats ?? { walks: 0, resumed: 0, reused: 0, trusted: 0 }) };
}

/** The iframe element behind owner `index` of walk `walk`. */
export function snapshotOwner(walk: number, index: number): Element {
  const store = globalThis as unknown as { __cmWalks?: Map<number, Element[]> };
  const owner = store.__cmWalks?.get(walk)?.[index];
  if (!owner) throw new Error(`FRAME_NOT_FOUND: iframe ${index} of snapshot ${walk} is no longer known.`);
  return owner;
}

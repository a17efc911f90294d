// What one layer knows of a tab's parsed scripts, by session and V8 script id. Each Debugger.scriptParsed states the
// mark anew, so an id a new renderer process parses again never keeps the mark of the script it named before.
import { keepNewest } from './keep-newest.js';

/**
 * V8 never reuses an id in one isolate, but a session's page that goes to another renderer process (a tab that left
 * for another site and came back, Chromium 156) starts its ids over: a mark kept past that parse would be another
 * script's. Marks are set only through `parsed`, which forgets the old one first.
 */
export class ScriptMarks<Mark = true> {
  private readonly marks = new Map<string, Mark>();

  /** `max`: the newest this many are kept (a bound for layers whose marks no event takes back). */
  constructor(private readonly max = Infinity) {}

  /**
   * A parse of `scriptId` on `sessionId`: the earlier script's mark is gone before `mark` is asked (it may ask this set),
   * and what it answers (undefined or false: none) is the mark of the script parsed now.
   */
  parsed(sessionId: string | undefined, scriptId: unknown, mark: () => Mark | undefined | false): void {
    const key = keyOf(sessionId, scriptId);
    this.marks.delete(key);
    const now = mark();
    if (now === undefined || now === false) return;
    this.marks.set(key, now);
    keepNewest(this.marks, this.max);
  }

  get(sessionId: string | undefined, scriptId: unknown): Mark | undefined {
    return this.marks.get(keyOf(sessionId, scriptId));
  }

  has(sessionId: string | undefined, scriptId: unknown): boolean {
    return this.marks.has(keyOf(sessionId, scriptId));
  }

  /** Forgets every script whose mark `gone` says is gone (the frame it ran in, detached). */
  forget(gone: (mark: Mark) => boolean): void {
    for (const [key, mark] of this.marks) if (gone(mark)) this.marks.delete(key);
  }
}

function keyOf(sessionId: string | undefined, scriptId: unknown): string {
  return `${sessionId}:${String(scriptId)}`;
}

// The images of the newest screenshot calls, by call id, for the panel's thumbnails: kept apart from the activity log
// (a thousand events must not each hold a picture) and from the audit log, and dropped oldest first.
import type { Shot } from '../../../shared/control/activity.js';
import { SHOTS_KEPT } from '../../../shared/control/api.js';

/**
 * Their base64 at most, all together: a full-page PNG may be clamped at 16,384 px tall and still run to tens of MB,
 * so a count alone would not keep this small.
 */
export const SHOTS_MAX_CHARS = 64 * 1024 * 1024;

export class Shots {
  /** A Map iterates in insertion order: the first entry is the oldest. */
  private readonly kept = new Map<string, Shot>();
  private chars = 0;

  constructor(
    private readonly capacity = SHOTS_KEPT,
    private readonly maxChars = SHOTS_MAX_CHARS,
  ) {}

  /** Keeps call `id`'s image, dropping the oldest past either limit; false when this one alone is past the budget. */
  keep(id: string, shot: Shot): boolean {
    if (shot.data.length > this.maxChars) return false;
    this.kept.set(id, shot);
    this.chars += shot.data.length;
    for (const [oldId, old] of this.kept) {
      if (this.kept.size <= this.capacity && this.chars <= this.maxChars) break;
      this.kept.delete(oldId);
      this.chars -= old.data.length;
    }
    return true;
  }

  get(id: string): Shot | undefined {
    return this.kept.get(id);
  }
}

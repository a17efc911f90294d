// The activity log: the last ACTIVITY_CAPACITY events in memory, numbered in order, pushed to every subscriber.
import type { ActivityEvent, ActivityInput } from '../../../shared/control/activity.js';
import { ACTIVITY_CAPACITY } from '../../../shared/control/api.js';
import type { Log } from '../log.js';

export type ActivityListener = (event: ActivityEvent) => void;

export class Activity {
  private readonly events: ActivityEvent[] = [];
  private readonly listeners = new Set<ActivityListener>();
  private seq = 0;

  constructor(
    private readonly log: Log,
    private readonly now: () => number = Date.now,
  ) {}

  emit(input: ActivityInput): ActivityEvent {
    const event: ActivityEvent = { seq: ++this.seq, time: this.now(), ...input };
    this.events.push(event);
    if (this.events.length > ACTIVITY_CAPACITY) this.events.shift();
    for (const listener of this.listeners) {
      // A panel's stream failing must not stop the others, nor the call that caused the event.
      try {
        listener(event);
      } catch (error) {
        this.log(`activity: a subscriber failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return event;
  }

  /** Replays the kept events after `since` first, in the same turn, so a subscriber sees no gap and no repeat. */
  subscribe(listener: ActivityListener, since?: number): () => void {
    if (since !== undefined) for (const event of this.events) if (event.seq > since) listener(event);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Events after `since`, oldest first, at most `limit`; without `since`, the latest `limit`. `next` continues from here. */
  list(since: number | undefined, limit: number): { events: ActivityEvent[]; next: number } {
    const events =
      since === undefined
        ? this.events.slice(-limit)
        : this.events.filter((event) => event.seq > since).slice(0, limit);
    // A `since` past our last seq comes from a panel that outlived an earlier core: `next` brings it back in range.
    return { events, next: events.at(-1)?.seq ?? this.seq };
  }
}

// The activity log: seq numbers in order, the last 1000 kept, paging with `next`, and subscribers that see no gap.
import { describe, expect, it } from 'vitest';
import { Activity } from '../../electron/core/control/activity.js';
import type { ActivityEvent } from '../../shared/control/activity.js';

const interjection = (message: string) => ({ type: 'interjection' as const, change: 'queued' as const, message });

describe('activity log', () => {
  it('numbers events from 1 and keeps only the latest 1000', () => {
    const activity = new Activity(() => undefined);
    for (let i = 1; i <= 1005; i++) activity.emit(interjection(`m${i}`));
    const { events, next } = activity.list(undefined, 1000);
    expect(events).toHaveLength(1000);
    expect(events[0]!.seq).toBe(6);
    expect(next).toBe(1005);
    expect(activity.list(0, 1000).events[0]!.seq).toBe(6);
  });

  it('pages forward from `since` with `next`, and brings a `since` from an earlier core back in range', () => {
    const activity = new Activity(() => undefined);
    for (let i = 1; i <= 5; i++) activity.emit(interjection(`m${i}`));
    const first = activity.list(0, 2);
    expect(first.events.map((e) => e.seq)).toEqual([1, 2]);
    const second = activity.list(first.next, 10);
    expect(second.events.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(activity.list(second.next, 10)).toEqual({ events: [], next: 5 });
    expect(activity.list(9_999, 10)).toEqual({ events: [], next: 5 });
    expect(activity.list(undefined, 2).events.map((e) => e.seq)).toEqual([4, 5]);
  });

  it('replays what followed `since` to a new subscriber, then live events, and survives a failing one', () => {
    const logged: string[] = [];
    const activity = new Activity((line) => logged.push(line));
    activity.emit(interjection('a'));
    activity.emit(interjection('b'));
    const seen: ActivityEvent[] = [];
    activity.subscribe(() => {
      throw new Error('panel gone');
    });
    const off = activity.subscribe((event) => seen.push(event), 1);
    activity.emit(interjection('c'));
    off();
    activity.emit(interjection('d'));
    expect(seen.map((e) => e.seq)).toEqual([2, 3]);
    expect(logged).toEqual([expect.stringContaining('panel gone'), expect.stringContaining('panel gone')]);
  });
});

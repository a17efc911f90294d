// The bound on kept records: the oldest entries go first, whatever the collection.
import { describe, expect, it } from 'vitest';
import { keepNewest } from '../../shared/engine/keep-newest.js';

describe('keepNewest', () => {
  it('keeps the newest entries of a Map, in order', () => {
    const kept = new Map([1, 2, 3, 4, 5].map((key) => [key, String(key)]));
    keepNewest(kept, 2);
    expect([...kept.keys()]).toEqual([4, 5]);
    keepNewest(kept, 5);
    expect([...kept.keys()]).toEqual([4, 5]);
  });

  it('keeps the newest entries of a Set, after a re-add moved none', () => {
    const kept = new Set(['a', 'b', 'c']);
    kept.add('a');
    keepNewest(kept, 1);
    expect([...kept]).toEqual(['c']);
    keepNewest(kept, 0);
    expect(kept.size).toBe(0);
  });
});

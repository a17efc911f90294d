// The bound every kept record of the engine and its hosts has: a Map or Set, in insertion order, loses its oldest first.

/** Drops the oldest entries of `kept` until at most `max` remain. */
export function keepNewest<K>(
  kept: { readonly size: number; keys(): IterableIterator<K>; delete(key: K): boolean },
  max: number,
): void {
  // A Map or Set iterates in insertion order and tolerates deletes while iterating.
  for (const key of kept.keys()) {
    if (kept.size <= max) return;
    kept.delete(key);
  }
}

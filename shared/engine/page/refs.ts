// In-page ref table (lives in our isolated world, so it dies with the document): element <-> ref, stable while the element lives.

export interface RefTable {
  byRef: Map<string, WeakRef<Element>>;
  byElement: WeakMap<Element, string>;
  /** Highest ref number this world minted, so a restarted engine never re-mints a live ref. */
  high: number;
}

export function refTable(): RefTable {
  const scope = globalThis as unknown as { __cmRefs?: RefTable };
  scope.__cmRefs ??= { byRef: new Map(), byElement: new WeakMap(), high: 0 };
  return scope.__cmRefs;
}

/**
 * Returns the element's ref, minting `<prefix>e<n>` from `counter` when it has none.
 * `counter.n` is advanced past anything this world has already minted.
 */
export function refFor(element: Element, prefix: string, counter: { n: number }): string {
  const refs = __cm.refTable();
  const known = refs.byElement.get(element);
  if (known) return known;
  counter.n = Math.max(counter.n, refs.high + 1);
  const ref = `${prefix}e${counter.n}`;
  refs.high = counter.n;
  counter.n += 1;
  refs.byRef.set(ref, new WeakRef(element));
  refs.byElement.set(element, ref);
  return ref;
}

/** The live element behind a ref; throws `REF_EXPIRED` / `REF_UNKNOWN` for the engine to pass on. */
export function elementForRef(ref: string): Element {
  const entry = __cm.refTable().byRef.get(ref);
  if (!entry)
    throw new Error(`REF_UNKNOWN: ${ref} is not on this page (the page may have navigated). Call snapshot again.`);
  const element = entry.deref();
  if (!element || !element.isConnected) {
    __cm.refTable().byRef.delete(ref);
    throw new Error(`REF_EXPIRED: ${ref} was removed from the page. Call snapshot again.`);
  }
  return element;
}

/** Highest ref number minted in this world (0 when none). */
export function refHigh(): number {
  return __cm.refTable().high;
}

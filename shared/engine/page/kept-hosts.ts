// In-page shadow hosts for element lookups, kept current by a MutationObserver: a lookup walks no whole document.

interface KeptHosts {
  document: Document;
  observer: MutationObserver;
  /** Records not yet taken in; past QUEUE_MAX they are dropped and the next lookup walks anew. */
  queue: MutationRecord[];
  overflowed: boolean;
  /** Each scope's hosts of open shadow roots; a scope is the document or one of those roots. */
  hosts: Map<Document | ShadowRoot, Set<Element>>;
  /** Custom elements seen without a root: their definition or first render may attach one, which no mutation tells. */
  rootless: Set<Element>;
}

/**
 * Runs `lookup` with the hosts of open shadow roots in each scope it asks about, as `shadowHostsIn` would find them,
 * but from a list an observer in our world keeps since the first lookup in this document, so a lookup costs its
 * matches, not a walk of every element (a 50,000-element page: ~13 ms a call on an idle box). Every way a host comes
 * or goes by a mutation is seen: inserted with its root, removed, moved, inside a root we know. A root attached to an
 * element already there tells nothing: custom elements without one are looked at again each time (that is where
 * frameworks attach late), and when the lookup finds nothing it walks the document once more and looks again, so a
 * missed root never makes an element "not found". While the document is loading (a declarative root arrives after
 * its host) the lookup walks as `shadowHostsIn` does. Guards (password, payment, capture mask) keep that exact walk.
 */
export function withKeptHosts(lookup: (hostsIn: (scope: Document | ShadowRoot) => Element[]) => Element[]): Element[] {
  const QUEUE_MAX = 5_000;
  const state = globalThis as unknown as { __cmKeptHosts?: KeptHosts };
  if (document.readyState === 'loading') {
    // document.write or a streamed document: the list starts again once it is parsed.
    state.__cmKeptHosts?.observer.disconnect();
    state.__cmKeptHosts = undefined;
    return lookup((scope) => __cm.shadowHostsIn(scope));
  }
  const observe = (kept: KeptHosts, scope: Document | ShadowRoot) => {
    if (!kept.hosts.has(scope)) kept.hosts.set(scope, new Set());
    kept.observer.observe(scope, { childList: true, subtree: true });
  };
  // An element that came (or the whole document, once): its hosts listed, their roots observed and walked in turn.
  const take = (kept: KeptHosts, from: Document | ShadowRoot | Element) => {
    const walker = document.createTreeWalker(from, NodeFilter.SHOW_ELEMENT);
    const first = from instanceof Element ? from : (walker.nextNode() as Element | null);
    for (let element = first; element; element = walker.nextNode() as Element | null) {
      const root = element.shadowRoot;
      if (root) {
        const scope = element.getRootNode() as Document | ShadowRoot;
        if (!kept.hosts.has(scope)) observe(kept, scope);
        kept.hosts.get(scope)!.add(element);
        if (!kept.hosts.has(root)) {
          observe(kept, root);
          take(kept, root);
        }
      } else if (element.localName.includes('-')) kept.rootless.add(element);
    }
  };
  const build = () => {
    state.__cmKeptHosts?.observer.disconnect();
    const kept: KeptHosts = {
      document,
      observer: new MutationObserver((records) => {
        if (kept.overflowed) return;
        kept.queue.push(...records);
        if (kept.queue.length > QUEUE_MAX) {
          kept.overflowed = true;
          kept.queue = [];
        }
      }),
      queue: [],
      overflowed: false,
      hosts: new Map(),
      rootless: new Set(),
    };
    observe(kept, document);
    take(kept, document);
    state.__cmKeptHosts = kept;
    return kept;
  };
  const update = (kept: KeptHosts) => {
    const records = [...kept.queue, ...kept.observer.takeRecords()];
    kept.queue = [];
    let removed = false;
    for (const record of records) {
      removed ||= record.removedNodes.length > 0;
      for (const added of record.addedNodes) if (added instanceof Element && added.isConnected) take(kept, added);
    }
    for (const element of kept.rootless) {
      if (element.shadowRoot && element.isConnected) take(kept, element);
      if (element.shadowRoot || !element.isConnected) kept.rootless.delete(element);
    }
    if (!removed) return;
    // A host that left, or moved to another scope, leaves its old one; the roots inside it went with it.
    for (const [scope, hosts] of kept.hosts) {
      if (scope !== document && !(scope as ShadowRoot).host.isConnected) kept.hosts.delete(scope);
      else for (const host of hosts) if (!host.isConnected || host.getRootNode() !== scope) hosts.delete(host);
    }
  };
  let kept = state.__cmKeptHosts;
  const walked = !kept || kept.document !== document || kept.overflowed;
  if (walked) kept = build();
  else update(kept!);
  const hostsIn = (scope: Document | ShadowRoot) => {
    const hosts = kept!.hosts.get(scope);
    if (!hosts) return __cm.shadowHostsIn(scope);
    return [...hosts].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  };
  const found = lookup(hostsIn);
  if (found.length > 0 || walked) return found;
  // Nothing matched: a root attached with no mutation to tell of it may hold the match, so walk before saying so.
  kept = build();
  return lookup(hostsIn);
}

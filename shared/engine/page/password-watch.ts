// In-page password watch: the inputs of this document that may be password fields, kept current by a MutationObserver,
// so the eval guard looks at those few on each call instead of walking the whole DOM.

interface PasswordWatch {
  observer: MutationObserver;
  /**
   * Every connected input of the document and its open shadow roots that `isPasswordField` judges one, and maybe more:
   * each is judged again when read, so a stale member costs a check, never an answer.
   */
  candidates: Set<HTMLInputElement>;
  /** The shadow roots observed (a MutationObserver on the document does not see into them). */
  roots: WeakSet<ShadowRoot>;
  /** Custom elements not defined when seen: the definition may attach a shadow root, which no mutation tells. */
  pending: Set<Element>;
  /** Whether the binding was last told the document is quiet (no candidate, nothing pending). */
  quiet?: boolean;
}

/**
 * The first password field this frame shows, as `shownPasswordField` names it; null when there is none. The first call
 * in a document scans it whole and installs the watch; later ones read what the watch kept, having taken the mutations
 * not yet delivered. What makes an input a password field is all in the DOM (its type, autocomplete, name, id,
 * placeholder, aria-label attributes and its labels' text), so every way one becomes such a field is a mutation the
 * watch sees; whether it is shown or holds a value is read anew on each call, for the candidates only.
 *
 * `binding`, where our world has it (the top frame's, frame-worlds.ts), is told whether the document is quiet: no input
 * that may be a password field and no undefined custom element. Told at each call and, from then on, by the observer
 * whenever that changes, before the next task of the page runs: so the engine knows it without asking
 * (quiet-document.ts).
 */
export function watchedPasswordField(binding?: string): string | null {
  const scope = globalThis as unknown as { __cmPasswordWatch?: PasswordWatch } & Record<string, unknown>;
  const told = binding === undefined ? undefined : scope[binding];
  const tell = (always: boolean) => {
    const quiet = watch.candidates.size === 0 && watch.pending.size === 0;
    if (typeof told === 'function' && (always || watch.quiet !== quiet)) told(quiet ? 'quiet' : 'candidates');
    watch.quiet = quiet;
  };
  const JUDGED = ['type', 'autocomplete', 'name', 'id', 'placeholder', 'aria-label', 'for'];
  const consider = (element: Element | null | undefined) => {
    if (element?.localName === 'input' && __cm.isPasswordField(element))
      watch.candidates.add(element as HTMLInputElement);
  };
  const observe = (root: Document | ShadowRoot) => {
    if (root instanceof ShadowRoot) {
      if (watch.roots.has(root)) return;
      watch.roots.add(root);
    }
    watch.observer.observe(root, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
      attributeFilter: JUDGED,
      attributeOldValue: true,
    });
  };
  // A subtree that came (or the whole document, once): its inputs judged, its labels' controls too, its roots observed.
  const scan = (node: Document | ShadowRoot | Element) => {
    const own = node instanceof Element ? [node] : [];
    const found = __cm.deepQueryAll(node, 'input, label, :not(:defined)', observe);
    for (const element of [...own, ...found]) {
      if (element.localName === 'label') consider((element as HTMLLabelElement).control);
      else if (!element.matches(':defined')) watch.pending.add(element);
      else consider(element);
    }
    const host = node instanceof Element ? node.shadowRoot : null;
    if (host && !watch.roots.has(host)) {
      observe(host);
      scan(host);
    }
  };
  // The controls of the labels that name `id` in `root`: an id that came or went moves a label's `for` to another field.
  const labelsFor = (root: Node, id: string | null) => {
    if (!id || !(root instanceof Document || root instanceof ShadowRoot)) return;
    for (const label of root.querySelectorAll(`label[for="${CSS.escape(id)}"]`))
      consider((label as HTMLLabelElement).control);
  };
  // A removed element whose id a label named hands that label to the next element with the id. The labels are
  // listed once per record, so a large removal costs its own size, not a query per id.
  const unnamed = (root: Node, removed: Element[]) => {
    if (!(root instanceof Document || root instanceof ShadowRoot)) return;
    const labels = root.querySelectorAll('label[for]');
    if (labels.length === 0) return;
    const ids = new Set(removed.flatMap((element) => [element, ...element.querySelectorAll('[id]')]).map((e) => e.id));
    for (const label of labels)
      if (ids.has((label as HTMLLabelElement).htmlFor)) consider((label as HTMLLabelElement).control);
  };
  const relabel = (node: Node) => {
    const element = node instanceof Element ? node : node.parentElement;
    consider((element?.closest('label') as HTMLLabelElement | null)?.control);
  };
  const absorb = (records: MutationRecord[]) => {
    for (const record of records) {
      if (record.type === 'attributes') {
        const target = record.target as Element;
        consider(target);
        if (record.attributeName === 'for') consider((target as HTMLLabelElement).control);
        if (record.attributeName === 'id') {
          labelsFor(target.getRootNode(), record.oldValue);
          labelsFor(target.getRootNode(), target.id);
        }
        continue;
      }
      // Text or children changed inside a label: its control's name may now say password.
      relabel(record.target);
      for (const added of record.addedNodes) if (added instanceof Element) scan(added);
      const removed = [...record.removedNodes].filter((node): node is Element => node instanceof Element);
      if (removed.length > 0) unnamed(record.target.getRootNode(), removed);
    }
  };
  let watch = scope.__cmPasswordWatch as PasswordWatch;
  if (!watch) {
    const observer = new MutationObserver((records) => {
      absorb(records);
      tell(false);
    });
    watch = { observer, candidates: new Set(), roots: new WeakSet(), pending: new Set() };
    scope.__cmPasswordWatch = watch;
    observe(document);
    scan(document);
    // A field in an open shadow root attached with no mutation the watch saw is caught when it takes focus.
    document.addEventListener(
      'focusin',
      (event) => {
        const target = event.composedPath()[0];
        const root = target instanceof Node ? target.getRootNode() : null;
        if (root instanceof ShadowRoot && !watch.roots.has(root)) {
          observe(root);
          scan(root);
          tell(false);
        }
      },
      true,
    );
  } else {
    absorb(watch.observer.takeRecords());
    for (const element of watch.pending) {
      if (element.isConnected && !element.matches(':defined')) continue;
      watch.pending.delete(element);
      if (element.shadowRoot && !watch.roots.has(element.shadowRoot)) scan(element);
    }
  }
  const fields = [...watch.candidates].filter((input) => input.isConnected && __cm.isPasswordField(input));
  watch.candidates = new Set(fields);
  tell(true);
  return __cm.shownPasswordField(fields);
}

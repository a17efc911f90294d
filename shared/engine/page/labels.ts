// A control's <label>s from one pass over its tree scope, instead of `control.labels`, which Chrome answers by walking
// the whole tree scope on every read (a walk over every field of a page was O(DOM²)).

/**
 * The labels whose labelled control is `control`, in tree order: what `control.labels` holds (`for=` and nested
 * labels, each tree scope on its own), [] for an element no label names. The map of each document or shadow root is
 * built once and dropped when the current task's synchronous work ends, so one walk builds it once and a later call
 * sees the DOM as it is then.
 */
export function labelsOf(control: Element): HTMLLabelElement[] {
  const store = globalThis as unknown as { __cmLabels?: Map<Node, Map<Element, HTMLLabelElement[]>> };
  if (!store.__cmLabels) {
    store.__cmLabels = new Map();
    queueMicrotask(() => (store.__cmLabels = undefined));
  }
  const scope = control.getRootNode();
  let byControl = store.__cmLabels.get(scope);
  if (!byControl) {
    byControl = new Map();
    for (const label of Array.from(__cm.labelsIn(scope))) {
      const labelled = label.control;
      if (!labelled) continue;
      const list = byControl.get(labelled);
      if (list) list.push(label);
      else byControl.set(labelled, [label]);
    }
    store.__cmLabels.set(scope, byControl);
  }
  return byControl.get(control) ?? [];
}

/**
 * Every <label> of a document or shadow root. The document's come from its live collection, kept for the document's
 * life: Chrome caches its items until the DOM's structure changes, so a call on a page that did not change walks none
 * of it (a querySelectorAll walked all 50,000 elements of a large page on every type and click, 0.5 ms).
 */
export function labelsIn(scope: Node): ArrayLike<HTMLLabelElement> {
  if (!(scope instanceof Document)) return (scope as ParentNode).querySelectorAll?.('label') ?? [];
  const kept = globalThis as unknown as { __cmLabelTags?: HTMLCollectionOf<HTMLLabelElement> };
  kept.__cmLabelTags ??= document.getElementsByTagName('label');
  return scope === document ? kept.__cmLabelTags : scope.getElementsByTagName('label');
}

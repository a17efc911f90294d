// In-page change watch for snapshot reuse: a stamp of what a frame's outline depends on, so a snapshot whose stamp
// still holds may reuse or continue the last walk (snapshot-frame.ts) instead of walking the document again.

interface SnapshotWatch {
  /** Sees every change of the document and of each shadow root a walk entered (one on the document sees no root). */
  observer: MutationObserver;
  roots: Set<ShadowRoot>;
  /** DOM changes seen, our own pill's coming and going aside. */
  mutations: number;
  /** Events telling of a state no mutation shows: scrolling, hover, focus, popovers, :target, input, animations. */
  events: number;
  /** A number per focused element, so the stamp names which one has focus. */
  focusIds: WeakMap<Element, number>;
  focusCount: number;
}

/**
 * The frame's stamp: equal stamps mean no change an outline can show was seen in between; null when the outline may
 * change with no sign (an animation or transition of a property the walk reads is in flight). `fields` are the form
 * fields the walk read (those it has not reached are read when it does). Installs the watch on the first call in a
 * document, and observes `roots` (shadow roots a walk entered) from now on.
 *
 * Seen: every DOM mutation (attributes, text, children, in the document and the roots entered), viewport size and
 * zoom (media queries), scroll, hover and focus (:hover, :focus-within menus), popovers and <details> toggled,
 * :target, form values and checks set by script (no mutation tells them), style sheets and rules added or removed.
 * Not seen: a style rule edited in place through the CSSOM, container queries answering a layout change of their own,
 * emulated media features, and a shadow root attached to an element that was not a custom element pending definition.
 */
export function snapshotStamp(fields: Element[], roots: ShadowRoot[] = []): string | null {
  const WATCHED = new Set(['display', 'visibility', 'contentVisibility', 'cursor']);
  const EVENTS = [
    'scroll',
    'mouseover',
    'mouseout',
    'focusin',
    'focusout',
    'toggle',
    'hashchange',
    'input',
    'change',
    'transitionrun',
    'transitionend',
    'animationstart',
    'animationend',
  ];
  const scope = globalThis as unknown as { __cmSnapshotWatch?: SnapshotWatch };
  let watch = scope.__cmSnapshotWatch;
  const counted = (records: MutationRecord[]) => {
    const ours = __cm.indicatorHost();
    const theirs = records.filter(
      (record) =>
        record.type !== 'childList' || ![...record.addedNodes, ...record.removedNodes].every((node) => node === ours),
    );
    if (watch) watch.mutations += theirs.length;
  };
  const options: MutationObserverInit = { attributes: true, characterData: true, childList: true, subtree: true };
  if (!watch) {
    const made: SnapshotWatch = {
      observer: new MutationObserver(counted),
      roots: new Set(),
      mutations: 0,
      events: 0,
      focusIds: new WeakMap(),
      focusCount: 0,
    };
    watch = scope.__cmSnapshotWatch = made;
    made.observer.observe(document, options);
    // Capture on window: these events do not all bubble, and no page handler can stop them before ours.
    for (const type of EVENTS) addEventListener(type, () => (made.events += 1), { capture: true, passive: true });
  }
  counted(watch.observer.takeRecords());
  for (const root of roots) {
    if (watch.roots.has(root)) continue;
    watch.roots.add(root);
    watch.observer.observe(root, options);
  }
  for (const root of watch.roots) if (!root.host.isConnected) watch.roots.delete(root);

  const moving = document.getAnimations().some((animation) => {
    const effect = animation.effect as KeyframeEffect | null;
    return !effect || effect.getKeyframes().some((frame) => Object.keys(frame).some((key) => WATCHED.has(key)));
  });
  if (moving) return null;

  const focused = __cm.deepActiveElement();
  let focus = 0;
  if (focused) {
    focus = watch.focusIds.get(focused) ?? (watch.focusCount += 1);
    watch.focusIds.set(focused, focus);
  }
  let rules = 0;
  for (const sheet of document.styleSheets) {
    try {
      rules += sheet.cssRules.length;
    } catch {
      // A cross-origin sheet hides its rules; its <link> coming or going is a mutation.
    }
  }
  const sheets = `${document.styleSheets.length}/${document.adoptedStyleSheets.length}/${rules}`;
  return [
    watch.mutations,
    watch.events,
    innerWidth,
    innerHeight,
    devicePixelRatio,
    scrollX,
    scrollY,
    focus,
    document.hasFocus(),
    location.hash,
    sheets,
    __cm.snapshotFieldsHash(fields),
  ].join(' ');
}

/**
 * A hash of what form fields hold (values, checks, choices, files): a script setting them tells no mutation. Only the
 * hash is kept, so no field's value is held beyond this call.
 */
export function snapshotFieldsHash(fields: Element[]): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  const mix = (text: string) => {
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      h1 = Math.imul(h1 ^ code, 2654435761);
      h2 = Math.imul(h2 ^ code, 1597334677);
    }
    h1 = Math.imul(h1 ^ 0x1f, 2654435761);
    h2 = Math.imul(h2 ^ 0x1f, 1597334677);
  };
  for (const field of fields) {
    if (field instanceof HTMLSelectElement) {
      mix(Array.from(field.options, (option) => (option.selected ? '1' : '0')).join(''));
    } else if (field instanceof HTMLInputElement) {
      if (field.type === 'checkbox' || field.type === 'radio') mix(`${field.checked} ${field.indeterminate}`);
      else if (field.type === 'file') mix(Array.from(field.files ?? [], (file) => file.name).join('/'));
      else mix(field.value);
    } else {
      mix((field as HTMLTextAreaElement).value);
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

// In-page change watch for snapshot reuse: a stamp of what a frame's outline depends on, so a snapshot whose stamp
// still holds may reuse or continue the last walk (snapshot-frame.ts) instead of walking the document again.
import type { WalkContext } from './snapshot.js';

interface SnapshotWatch {
  /** Sees every change of the document and of each shadow root a walk entered (one on the document sees no root). */
  observer: MutationObserver;
  roots: Set<ShadowRoot>;
  /** DOM changes seen, our own pill's coming and going aside. */
  mutations: number;
}

/**
 * The frame's stamp: equal stamps mean no change an outline can show was made in between. An outline is made of the
 * DOM, of form fields' state and of the computed styles the walk read, so the stamp is the DOM mutations seen (in the
 * document and in the shadow roots the walk entered, observed from now on), a hash of the fields the walk read and a
 * hash of the styles it read (the context's styled elements), each read again now. Reading the styles again is what
 * sees every way a style changes with no mutation: a rule edited, inserted or deleted through the CSSOM, a sheet turned
 * off or adopted, hover, focus, :target, scrolling, viewport, zoom and emulated media, a container resized by a font
 * or an image that loaded, a property registered by script, an animation. No event, observer or sheet count tells all
 * of these (a hash of every rule's text cost 55-150 ms on a 10,000-rule sheet); this costs what the walk's own style
 * reads cost, so it grows with the outline returned, not with the page. Without `styles` the stamp stops before the
 * styles' hash (a prefix of the whole stamp), for a caller who knows by other means that no style changed. With
 * `last`, the stamp to compare with, a stamp already differing in a part is given without reading the parts after.
 * Installs the watch on the first call in a document.
 */
export function snapshotStamp(context: WalkContext, last?: string, styles = true): string {
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
    const made: SnapshotWatch = { observer: new MutationObserver(counted), roots: new Set(), mutations: 0 };
    watch = scope.__cmSnapshotWatch = made;
    made.observer.observe(document, options);
  }
  counted(watch.observer.takeRecords());
  for (const root of context.roots ?? []) {
    if (watch.roots.has(root)) continue;
    watch.roots.add(root);
    watch.observer.observe(root, options);
  }
  for (const root of watch.roots) if (!root.host.isConnected) watch.roots.delete(root);
  // Compared with `last`, a mutation seen already tells it differs: the walk's reads need not be read again.
  if (last !== undefined && !last.startsWith(`${watch.mutations} `)) return `${watch.mutations}`;
  const fields = `${watch.mutations} ${__cm.snapshotReadsHash(context.fields ?? [], [])}`;
  if (!styles || (last !== undefined && !last.startsWith(`${fields} `))) return fields;
  return `${fields} ${__cm.snapshotReadsHash([], context.styled ?? [])}`;
}

/**
 * A hash of what the walk read that no mutation tells: what `fields` hold (values, checks, choices, files; a script
 * setting them tells no mutation), the computed styles the walk read of `styled`, and whether a label's control has a
 * box. Only the hash is kept, so no field's value is held beyond this call.
 */
export function snapshotReadsHash(fields: Element[], styled: Element[]): number {
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
  // Every property of the computed style that the walk (snapshot.ts) and its text reads (textWalk) read; a label's
  // control, wherever it is, shows or not (its box read by the walk), which no style of the label tells.
  for (const element of styled) {
    const style = getComputedStyle(element);
    mix(`${style.display} ${style.visibility} ${style.contentVisibility} ${style.cursor}`);
    if (element instanceof HTMLLabelElement) mix(element.control?.getClientRects().length ? '1' : '0');
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

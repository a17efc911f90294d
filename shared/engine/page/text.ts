// In-page reading: page and element text (a secret field's value masked), HTML with password values masked, and find-by-text answered as outline lines.
import type { QuerySpec } from './query.js';

export interface TextSlice {
  text: string;
  /** Length of the whole text before it was cut to the caller's maximum; unknown when `more` (a walk that stopped). */
  total: number;
  /** The walk stopped once it held more than the caller's maximum: there is more, not counted. */
  more?: true;
  /** get_html: how many script and style bodies were left out. */
  omitted?: number;
}

export interface FindSpec extends QuerySpec {
  text?: string;
}

export interface FindAnswer {
  /** Up to `limit` matches, each as outline lines (joined by newlines) of its row, list item or control. */
  matches: string[];
  /** How many distinct matches there are in this frame. */
  total: number;
  counter: number;
}

/**
 * Rendered text like innerText, but over the flat tree: innerText skips open shadow roots and slotted content,
 * which is most of the text on component-built sites. Blocks start new lines; table cells are tab-separated.
 * `styled` gathers the elements whose computed style was read.
 */
export function visibleText(root: Element, styled?: Element[]): string {
  return __cm.textWalk(root, Infinity, styled).text;
}

/**
 * visibleText that stops once it holds more than `enough` characters no later element can change, on a tree of more
 * than a few thousand elements (a smaller one is read whole, its length counted): reading the start of a huge page
 * then costs what the start costs, not a computed style for every element of it.
 */
export function textWalk(root: Element, enough: number, styled?: Element[]): { text: string; stopped: boolean } {
  const skip = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'select', 'textarea', 'input']);
  // Most names come from a leaf holding only text ("Delete", "Row 377"): no styles to read, no tree to walk.
  if (root.childElementCount === 0 && !root.shadowRoot && root.localName !== 'slot' && !skip.has(root.localName)) {
    return { text: (root.textContent ?? '').replace(/\s+/g, ' ').trim(), stopped: false };
  }
  // Walked text as lines: spaces collapsed, cells tab-separated, blank lines dropped.
  const tidy = (text: string) =>
    text
      .split('\n')
      .map((line) =>
        line
          .replace(/ +/g, ' ')
          .replace(/ ?\t ?/g, '\t')
          .trim(),
      )
      .filter(Boolean)
      .join('\n');
  const parts: string[] = [];
  const ours = __cm.indicatorHost();
  let visited = 0;
  // A small tree is read whole and its length counted (elements in shadow roots may still take the walk past the
  // floor, as the snapshot's); a larger one is checked from its first elements on.
  let nextCheck = enough === Infinity ? Infinity : Math.max(64, __cm.walkFloor(root));
  let held = '';
  const stop = {};
  // The lines that are complete so far (text after the last line break may still grow), tidied; the walk ends once
  // they are longer than asked.
  const tryStop = () => {
    nextCheck = visited + Math.max(64, visited >> 2);
    const sofar = parts.join('');
    held = tidy(sofar.slice(0, sofar.lastIndexOf('\n') + 1));
    if (held.length > enough) throw stop;
  };
  const walk = (element: Element) => {
    if (skip.has(element.localName) || element === ours) return;
    if (++visited >= nextCheck) tryStop();
    if (element.localName === 'br') {
      parts.push('\n');
      return;
    }
    const style = getComputedStyle(element);
    styled?.push(element);
    if (style.display === 'none') return;
    const block = !style.display.startsWith('inline') && style.display !== 'contents' && style.display !== 'table-cell';
    // A button or badge (inline-block) sits apart from its neighbours on screen; innerText would glue their words.
    const boxed = style.display.startsWith('inline-');
    const shown = style.visibility === 'visible';
    if (block) parts.push('\n');
    if (boxed) parts.push(' ');
    if (style.contentVisibility !== 'hidden') {
      for (const child of Array.from(__cm.flatChildren(element))) {
        if (child.nodeType === Node.TEXT_NODE) {
          if (shown) parts.push((child as Text).data.replace(/\s+/g, ' '));
        } else if (child.nodeType === Node.ELEMENT_NODE) {
          walk(child as Element);
        }
      }
    }
    if (style.display === 'table-cell') parts.push('\t');
    if (block) parts.push('\n');
    if (boxed) parts.push(' ');
  };
  try {
    walk(root);
  } catch (error) {
    if (error !== stop) throw error;
    return { text: held, stopped: true };
  }
  return { text: tidy(parts.join('')), stopped: false };
}

/** The frame's visible text, shadow DOM included; none when the frame itself is hidden (a display:none iframe has a 0×0 viewport). */
export function pageText(maxChars: number): TextSlice {
  const root = document.body ?? document.documentElement;
  const { text, stopped } =
    root && (innerWidth > 0 || innerHeight > 0) ? __cm.textWalk(root, maxChars) : { text: '', stopped: false };
  return { text: text.slice(0, maxChars), total: text.length, ...(stopped ? { more: true as const } : {}) };
}

/**
 * One element's text: a field's value, a select's choice and options, else its visible text. A secret field's value
 * (see secret-field.ts) reads as the field's name and the value's length (`sessionid: [redacted 32 chars]`).
 */
export function elementText(element: Element, maxChars: number): TextSlice {
  const tag = element.localName;
  let text: string;
  if (tag === 'select') {
    const select = element as HTMLSelectElement;
    const selected = Array.from(select.selectedOptions, (option) => option.label.trim());
    const options = Array.from(select.options, (option) => option.label.trim());
    text = `Selected: ${selected.join(', ') || '(none)'}\nOptions (${options.length}): ${options.join(' | ')}`;
  } else if (tag === 'input' || tag === 'textarea') {
    const field = element as HTMLInputElement;
    if (field.type === 'checkbox' || field.type === 'radio') text = field.checked ? 'checked' : 'not checked';
    else {
      // A secret field reads as the name it is known by and the value's length: bare, nothing downstream could tell
      // its value from other text.
      const shown = __cm.secretFieldName(field);
      const masked = `[redacted ${field.value.length} chars]`;
      if (shown === null || !field.value) text = field.value;
      else text = shown ? `${shown.slice(0, 60)}: ${masked}` : masked;
    }
  } else {
    text = __cm.visibleText(element);
    if (!text) text = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
  }
  return { text: text.slice(0, maxChars), total: text.length };
}

/** The frame's HTML (document element), password values masked. */
export function pageHtml(maxChars: number): TextSlice {
  return __cm.elementHtml(document.documentElement, maxChars);
}

/** Outer HTML with open shadow roots as declarative templates; value attributes of password fields read "[hidden]". */
export function elementHtml(element: Element, maxChars: number): TextSlice {
  const roots: ShadowRoot[] = [];
  const secrets = new Set<string>();
  const note = (node: Element) => {
    if (__cm.isPasswordField(node) && node.getAttribute('value')) secrets.add(node.getAttribute('value')!);
    if (node.shadowRoot) {
      roots.push(node.shadowRoot);
      for (const inner of node.shadowRoot.querySelectorAll('*')) note(inner);
    }
  };
  note(element);
  for (const inner of element.querySelectorAll('*')) note(inner);
  let html = element.outerHTML;
  if (roots.length > 0 && typeof element.getHTML === 'function') {
    const shell = (element.cloneNode(false) as Element).outerHTML;
    const close = `</${element.localName}>`;
    if (shell.endsWith(close)) html = shell.slice(0, -close.length) + element.getHTML({ shadowRoots: roots }) + close;
  }
  // Our own pill is no part of the page (its closed shadow root serialises as an empty element).
  const ours = __cm.indicatorHost();
  if (ours && element.contains(ours)) html = html.replace(ours.outerHTML, '');
  for (const secret of secrets) {
    // Serialise the secret the way this browser escapes attributes, so the masked text matches the serialised page exactly.
    const probe = document.createElement('input');
    probe.setAttribute('value', secret);
    const attribute = /value="[^"]*"/.exec(probe.outerHTML)?.[0];
    if (attribute) html = html.split(attribute).join('value="[hidden]"');
  }
  const inside = [
    element,
    ...element.querySelectorAll('*'),
    ...roots.flatMap((root) => [...root.querySelectorAll('*')]),
  ];
  const { text, omitted } = __cm.withoutCode(html, inside);
  return { text: text.slice(0, maxChars), total: text.length, ...(omitted > 0 ? { omitted } : {}) };
}

/**
 * The HTML with every script and style body replaced by its length (`<script>… 412 chars</script>`): a page's own
 * code holds what no page shows (a password a script sets, a token it stores, an API key in its config), and the
 * redaction that follows cannot know every form such a value takes. Each element's own serialisation is found whole
 * in the page's (an element serialises the same alone as inside its parent), longest first, so a script whose text
 * spells another's is cut as one.
 */
export function withoutCode(html: string, elements: Element[]): { text: string; omitted: number } {
  const code = elements.filter(
    (element) => (element.localName === 'script' || element.localName === 'style') && element.innerHTML !== '',
  );
  const cuts = code.map((element) => {
    const whole = element.outerHTML;
    const body = element.innerHTML;
    const close = whole.lastIndexOf('</');
    const open = whole.slice(0, close - body.length);
    return { whole, shown: `${open}… ${body.length} chars${whole.slice(close)}` };
  });
  let text = html;
  let omitted = 0;
  for (const { whole, shown } of cuts.sort((a, b) => b.whole.length - a.whole.length)) {
    if (!text.includes(whole)) continue;
    text = text.split(whole).join(shown);
    omitted++;
  }
  // A body that was not found whole (which serialisation never produces) is cut from its first character on.
  for (const element of code) {
    const body = element.innerHTML;
    if (body.length >= 8 && text.includes(body)) text = text.split(body).join(`… ${body.length} chars`);
  }
  return { text, omitted };
}

/** Elements whose visible text (or name / value) contains `text`, in document order, piercing open shadow roots. */
export function textMatches(text: string): Element[] {
  const needle = text.replace(/\s+/g, ' ').trim().toLowerCase();
  const skip = new Set(['script', 'style', 'noscript', 'template', 'title', 'head']);
  const hits: Element[] = [];
  const seen = new Set<Element>();
  const add = (element: Element | null) => {
    if (!element || seen.has(element) || skip.has(element.localName) || __cm.isHidden(element)) return;
    seen.add(element);
    hits.push(element);
  };
  const ours = __cm.indicatorHost();
  const scan = (root: Document | ShadowRoot) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node === ours) continue;
      if (node.nodeType === Node.TEXT_NODE) {
        if ((node as Text).data.replace(/\s+/g, ' ').toLowerCase().includes(needle)) add(node.parentElement);
        continue;
      }
      const element = node as Element;
      if (element.shadowRoot) scan(element.shadowRoot);
      // Controls named by attributes, and fields showing a value, hold visible text outside text nodes.
      const field = element as HTMLInputElement;
      const own =
        element.getAttribute('aria-label') ??
        element.getAttribute('alt') ??
        (element.localName === 'input' && !__cm.isPasswordField(element) ? field.value || field.placeholder : null);
      if (own?.toLowerCase().includes(needle)) add(element);
    }
  };
  scan(document);
  if (hits.length > 0) return hits;
  // The text may span elements ("$<b>12</b>.00"): descend to the innermost elements whose rendered text holds it.
  const holds = (element: Element) => __cm.visibleText(element).replace(/\s+/g, ' ').toLowerCase().includes(needle);
  const descend = (element: Element) => {
    const inner = Array.from(element.children).filter(holds);
    if (inner.length === 0) add(element);
    else inner.forEach(descend);
  };
  if (document.body && holds(document.body)) descend(document.body);
  return hits;
}

/** Answers `find`: matching elements, each shown in the row, list item or control it belongs to, as outline lines with refs. */
export function findElements(spec: FindSpec, limit: number, prefix: string, counter: number): FindAnswer {
  const CONTEXT = 'tr, li, [role=row], [role=listitem], [role=option], [role=treeitem], [role=menuitem], [role=tab]';
  const CONTROL =
    'a[href], button, input, select, textarea, summary, label, [role=button], [role=link], [role=checkbox], [role=radio], ' +
    '[role=switch], [role=combobox], [role=textbox]';
  const CONTEXT_MAX_ELEMENTS = 80;
  const LINES_PER_MATCH = 6;
  const needle = spec.text?.replace(/\s+/g, ' ').trim().toLowerCase();
  let hits: Element[];
  if (spec.selector !== undefined || spec.role !== undefined || spec.name !== undefined) {
    hits = __cm
      .queryElements({ selector: spec.selector, role: spec.role, name: spec.name })
      .filter((element) => !__cm.isHidden(element));
    if (needle) {
      hits = hits.filter((element) => {
        const text = `${__cm.visibleText(element)} ${__cm.accessibleName(element)}`;
        return text.replace(/\s+/g, ' ').toLowerCase().includes(needle);
      });
    }
  } else {
    hits = __cm.textMatches(needle ?? '');
  }
  // Show each hit where a person would see it: its table row or list item when small, else its control, else its block.
  const shown: Element[] = [];
  const seen = new Set<Element>();
  for (const hit of hits) {
    const context = hit.closest(CONTEXT);
    let subject =
      context && context.getElementsByTagName('*').length <= CONTEXT_MAX_ELEMENTS
        ? context
        : (hit.closest(CONTROL) ?? hit);
    if (subject === hit && !__cm.ariaRole(hit) && hit.parentElement && __cm.ariaRole(hit.parentElement))
      subject = hit.parentElement;
    if (!seen.has(subject)) {
      seen.add(subject);
      shown.push(subject);
    }
  }
  const context = { prefix, counter: { n: counter }, owners: [] };
  const matches = shown.slice(0, limit).map((subject) => {
    const { lines } = __cm.snapshotRender(__cm.snapshotBuild(subject, context));
    const more = lines.length - LINES_PER_MATCH;
    return [...lines.slice(0, LINES_PER_MATCH), ...(more > 0 ? [`  … ${more} more lines inside`] : [])].join('\n');
  });
  return { matches, total: shown.length, counter: context.counter.n };
}

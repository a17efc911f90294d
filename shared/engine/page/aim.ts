// In-page aiming for pointer input: an element's visible centre in its frame, and what really sits under a point.

export interface AimPoint {
  /** Frame-local CSS px (the frame's own viewport). */
  x: number;
  y: number;
  what: string;
}

/** Short human description of an element for results and errors: `button "Save"`, `div#cookie-banner "We use cookies"`. */
export function describeElement(element: Element): string {
  const clip = (text: string) => {
    const clean = text.replace(/\s+/g, ' ').trim();
    return clean.length > 40 ? `${clean.slice(0, 39)}…` : clean;
  };
  const role = __cm.ariaRole(element);
  const name = clip(__cm.accessibleName(element));
  if (role && name) return `${role} "${name}"`;
  const id = element.id ? `#${element.id}` : '';
  // textContent, not innerText: an overlay can be large and innerText forces layout of all of it.
  const text = name || clip((element.textContent ?? '').slice(0, 200));
  return `${role || element.localName}${id}${text ? ` "${text}"` : ''}`;
}

/** The innermost element at a frame-local point, looking into open shadow roots. */
export function deepElementAt(x: number, y: number): Element | null {
  let hit = document.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/** Whether `node` is `ancestor` or inside it, crossing shadow-root boundaries. */
export function composedContains(ancestor: Element, node: Node | null): boolean {
  for (let current = node; current; current = current instanceof ShadowRoot ? current.host : current.parentNode) {
    if (current === ancestor) return true;
  }
  return false;
}

/**
 * The point a click on `element` should go to, checked: visible, enabled, and not covered by another element.
 * `scroll` lets it scroll the element into its frame's view (only the main frame: a child frame was revealed by
 * CDP, which also scrolls the parents); 'refuse' aims as `true` does but throws where that would scroll, for an
 * element that must not move before the engine has judged it. Throws `CODE: message` for the engine.
 */
export function aimPoint(element: Element, scroll: boolean | 'refuse'): AimPoint {
  const what = __cm.describeElement(element);
  if (!element.isConnected) throw new Error(`NOT_FOUND: ${what} was removed from the page.`);
  if (element.matches(':disabled')) throw new Error(`DISABLED: ${what} is disabled.`);
  if (element.localName === 'option')
    throw new Error(`NOT_VISIBLE: ${what} is an option of a <select>; use select_option.`);
  if (!element.checkVisibility({ visibilityProperty: true }))
    throw new Error(`NOT_VISIBLE: ${what} is hidden (display, visibility or content-visibility).`);
  const root = document.scrollingElement ?? document.documentElement;
  const visibleCentre = () => {
    const rects = Array.from(element.getClientRects()).filter((rect) => rect.width > 0 && rect.height > 0);
    if (rects.length === 0) throw new Error(`NOT_VISIBLE: ${what} has no size.`);
    const width = root.clientWidth || innerWidth;
    const height = root.clientHeight || innerHeight;
    const first = rects[0]!;
    const inView = first.left >= 0 && first.top >= 0 && first.right <= width && first.bottom <= height;
    for (const rect of rects) {
      const left = Math.max(rect.left, 0);
      const top = Math.max(rect.top, 0);
      const right = Math.min(rect.right, width);
      const bottom = Math.min(rect.bottom, height);
      if (right - left >= 1 && bottom - top >= 1) return { x: (left + right) / 2, y: (top + bottom) / 2, inView };
    }
    return { x: NaN, y: NaN, inView: false };
  };
  // Why the point would not reach the element; '' when it would.
  const blocker = (x: number, y: number) => {
    if (Number.isNaN(x)) return `NOT_VISIBLE: ${what} is outside the visible area.`;
    const hit = __cm.deepElementAt(x, y);
    if (!hit) return `NOT_VISIBLE: ${what} is outside the visible area.`;
    if (__cm.composedContains(element, hit)) return '';
    // A label forwards its click to its control, so landing on the target's label is landing on the target.
    const labels = __cm.labelsOf(element);
    if (labels.some((label) => __cm.composedContains(label, hit))) return '';
    if (__cm.composedContains(hit, element))
      return `OBSCURED: ${what} lets clicks through (pointer-events); ${__cm.describeElement(hit)} would get the click.`;
    return `OBSCURED: ${__cm.describeElement(hit)} covers ${what}.`;
  };
  const centre = () => {
    if (scroll === 'refuse') throw new Error(`NOT_VISIBLE: ${what} would have to be scrolled to.`);
    element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  };
  let point = visibleCentre();
  if (scroll && !point.inView) {
    centre();
    point = visibleCentre();
  }
  let why = blocker(point.x, point.y);
  // A sticky header or a partly clipped scroller can cover an element that is in view; centred, it often is not.
  if (why && scroll) {
    centre();
    point = visibleCentre();
    why = blocker(point.x, point.y);
  }
  if (why) throw new Error(why);
  return { x: point.x, y: point.y, what };
}

/**
 * Checks, in a parent frame, that the child frame whose content box starts at (left, top) is what shows at (x, y).
 * Answers '' when it is, 'outside' when nothing is there, else the description of what covers it.
 */
export function frameOwnerAt(x: number, y: number, left: number, top: number): string {
  const hit = __cm.deepElementAt(x, y);
  if (!hit) return 'outside';
  if (hit.localName === 'iframe' || hit.localName === 'frame') {
    const rect = hit.getBoundingClientRect();
    const style = getComputedStyle(hit);
    const contentLeft = rect.left + hit.clientLeft + parseFloat(style.paddingLeft);
    const contentTop = rect.top + hit.clientTop + parseFloat(style.paddingTop);
    if (Math.abs(contentLeft - left) < 1.5 && Math.abs(contentTop - top) < 1.5) return '';
  }
  return __cm.describeElement(hit);
}

/** What a viewport point lands on, for reporting an x,y click. */
export function describeAt(x: number, y: number): string {
  const hit = __cm.deepElementAt(x, y);
  return hit ? __cm.describeElement(hit) : 'nothing';
}

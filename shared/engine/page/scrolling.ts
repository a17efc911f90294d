// In-page scrolling: find what a wheel would scroll, move it instantly, and answer where it ended.

export interface ScrollPosition {
  what: string;
  x: number;
  y: number;
  maxX: number;
  maxY: number;
}

export type ScrollEdge = 'top' | 'bottom' | null;

/**
 * Scrolls `scroller` (or, when it cannot move that way, its nearest ancestor that can, as a wheel would) by dx/dy
 * or to an edge. `behavior: instant` beats a page's `scroll-behavior: smooth`, so the answered position is final.
 */
export function scrollWith(start: Element, dx: number, dy: number, to: ScrollEdge): ScrollPosition {
  const page = document.scrollingElement ?? document.documentElement;
  const vertical = dy !== 0 || to !== null;
  const movable = (element: Element) => {
    const style = getComputedStyle(element);
    const canY =
      element.scrollHeight > element.clientHeight && (element === page || /auto|scroll|overlay/.test(style.overflowY));
    const canX =
      element.scrollWidth > element.clientWidth && (element === page || /auto|scroll|overlay/.test(style.overflowX));
    return vertical ? canY : canX;
  };
  let scroller: Element = page;
  for (let node: Node | null = start; node; node = node instanceof ShadowRoot ? node.host : node.parentNode) {
    if (node instanceof Element && movable(node)) {
      scroller = node;
      break;
    }
  }
  if (to) scroller.scrollTo({ top: to === 'top' ? 0 : scroller.scrollHeight, behavior: 'instant' });
  else scroller.scrollBy({ left: dx, top: dy, behavior: 'instant' });
  return {
    what: scroller === page ? 'page' : __cm.describeElement(scroller),
    x: Math.round(scroller.scrollLeft),
    y: Math.round(scroller.scrollTop),
    maxX: scroller.scrollWidth - scroller.clientWidth,
    maxY: scroller.scrollHeight - scroller.clientHeight,
  };
}

/** Scrolls the element, or what holds it. */
export function scrollElement(element: Element, dx: number, dy: number, to: ScrollEdge): ScrollPosition {
  return __cm.scrollWith(element, dx, dy, to);
}

/** Scrolls the page; on an app whose document does not scroll, the scroller at the viewport's centre. */
export function scrollPage(dx: number, dy: number, to: ScrollEdge): ScrollPosition {
  const page = document.scrollingElement ?? document.documentElement;
  const pageMoves =
    dy !== 0 || to !== null ? page.scrollHeight > page.clientHeight : page.scrollWidth > page.clientWidth;
  const start = pageMoves ? page : (__cm.deepElementAt(innerWidth / 2, innerHeight / 2) ?? page);
  return __cm.scrollWith(start, dx, dy, to);
}

/** Brings the element into its frame's view (centred) unless it is already fully there. */
export function revealElement(element: Element): string {
  const rect = element.getBoundingClientRect();
  const inView = rect.top >= 0 && rect.left >= 0 && rect.bottom <= innerHeight && rect.right <= innerWidth;
  if (!inView) element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  return __cm.describeElement(element);
}

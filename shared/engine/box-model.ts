// An element's box model (DOM.getBoxModel's four quads) as one terse line: the border box's size and place in its
// frame's viewport, then each edge's thickness in CSS order (top right bottom left, shortened as CSS shortens it).

/** Four corner points, clockwise from top left, as x1, y1 … x4, y4. */
type Quad = number[];

export interface BoxModel {
  content: Quad;
  padding: Quad;
  border: Quad;
  margin: Quad;
}

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export function boxLines(model: BoxModel | undefined): string[] {
  if (!model) return ['box: none (not rendered)'];
  const [content, padding, border, margin] = [model.content, model.padding, model.border, model.margin].map(rect);
  const size = (r: Rect) => `${round(r.right - r.left)}×${round(r.bottom - r.top)}`;
  return [
    `box: ${size(border!)} at ${round(border!.left)},${round(border!.top)} (border box, in its frame's viewport); ` +
      `content ${size(content!)}; padding ${edges(padding!, content!)}; border ${edges(border!, padding!)}; ` +
      `margin ${edges(margin!, border!)}`,
  ];
}

/** A quad's bounding rectangle: a transformed element's quad need not be axis-aligned. */
function rect(quad: Quad): Rect {
  const xs = quad.filter((_, i) => i % 2 === 0);
  const ys = quad.filter((_, i) => i % 2 === 1);
  return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
}

/** The thickness between an outer and an inner rectangle, per side. */
function edges(outer: Rect, inner: Rect): string {
  const [top, right, bottom, left] = [
    inner.top - outer.top,
    outer.right - inner.right,
    outer.bottom - inner.bottom,
    inner.left - outer.left,
  ].map(round);
  if (top === right && right === bottom && bottom === left) return `${top}`;
  if (top === bottom && right === left) return `${top} ${right}`;
  if (right === left) return `${top} ${right} ${bottom}`;
  return `${top} ${right} ${bottom} ${left}`;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

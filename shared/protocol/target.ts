// How a tool names an element: exactly one of ref, selector, role(+name, nth) or viewport x/y; optional frame.
export interface Target {
  ref?: string;
  selector?: string;
  role?: string;
  name?: string;
  nth?: number;
  x?: number;
  y?: number;
  /** Frame ordinal (from `frames`/refs `fN…`) or a piece of the frame's URL. */
  frame?: number | string;
  /** Short human description of the element, for the person watching; never used to find it. */
  element?: string;
}

// In-page element lookup by CSS selector (piercing open shadow roots) or by ARIA role and accessible name.

export interface QuerySpec {
  selector?: string;
  role?: string;
  name?: string;
}

/**
 * querySelectorAll that also searches inside open shadow roots, in document order; `onShadowRoot` is told each root it
 * enters (the password watch observes them). `hostsIn` finds each scope's hosts (element lookups pass the kept list).
 */
export function deepQueryAll(
  root: Document | ShadowRoot | Element,
  selector: string,
  onShadowRoot?: (shadowRoot: ShadowRoot) => void,
  hostsIn: (scope: Document | ShadowRoot | Element) => Element[] = __cm.shadowHostsIn,
): Element[] {
  const found: Element[] = [];
  // Our own pill is no part of the page.
  const ours = __cm.indicatorHost();
  const visit = (scope: Document | ShadowRoot | Element) => {
    for (const element of scope.querySelectorAll(selector)) if (element !== ours) found.push(element);
    for (const host of hostsIn(scope)) {
      onShadowRoot?.(host.shadowRoot!);
      visit(host.shadowRoot!);
    }
  };
  visit(root);
  return found;
}

/** Children in the flat tree, as rendered: a host's shadow root, a slot's assigned nodes, only the summary of a closed <details>. */
export function flatChildren(element: Element): ArrayLike<Node> {
  if (element.shadowRoot) return element.shadowRoot.childNodes;
  if (element.localName === 'slot') {
    const assigned = (element as HTMLSlotElement).assignedNodes();
    if (assigned.length > 0) return assigned;
  }
  if (element.localName === 'details' && !(element as HTMLDetailsElement).open) {
    return Array.from(element.children).filter((child) => child.localName === 'summary');
  }
  return element.childNodes;
}

/**
 * Elements matching the spec; a name matches case-insensitively as a substring unless it is quoted.
 * Role/name lookups skip hidden elements, so a hidden duplicate (mobile menu, closed dialog) never makes a match ambiguous.
 */
export function queryElements(spec: QuerySpec): Element[] {
  // The hosts come from the list kept current in the page (kept-hosts.ts): a lookup walks no whole document.
  const all = (selector: string, hostsIn: (scope: Document | ShadowRoot) => Element[]) =>
    __cm.deepQueryAll(document, selector, undefined, (scope) => hostsIn(scope as Document | ShadowRoot));
  if (spec.selector !== undefined) {
    try {
      return __cm.withKeptHosts((hostsIn) => all(spec.selector!, hostsIn));
    } catch {
      throw new Error(`BAD_ARGS: "${spec.selector}" is not a valid CSS selector.`);
    }
  }
  const role = spec.role?.toLowerCase();
  const wanted = spec.name?.trim();
  const exact = wanted !== undefined && wanted.length > 1 && wanted.startsWith('"') && wanted.endsWith('"');
  const needle = exact ? wanted.slice(1, -1) : wanted?.toLowerCase();
  return __cm.withKeptHosts((hostsIn) =>
    all('*', hostsIn).filter((element) => {
      if (role && __cm.ariaRole(element) !== role) return false;
      if (needle !== undefined) {
        const name = __cm.accessibleName(element);
        if (exact ? name !== needle : !name.toLowerCase().includes(needle)) return false;
      }
      return !__cm.isHidden(element);
    }),
  );
}

/**
 * Elements a walk of `root` takes before it may stop early: all of a small tree (up to 5,000 elements in its light
 * tree, counted by a walk that stops past that, under 1 ms), so its outline's or text's length is told; none of a
 * larger one, whose walk stops once it holds what was asked, so reading its start costs what the start costs.
 */
export function walkFloor(root: Node): number {
  const COUNTED_MAX = 5000;
  const elements = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  let seen = 0;
  while (seen <= COUNTED_MAX && elements.nextNode()) seen += 1;
  return seen > COUNTED_MAX ? 0 : COUNTED_MAX;
}

export function countElements(spec: QuerySpec): number {
  return __cm.queryElements(spec).length;
}

/**
 * The one element the spec names (or its nth match); throws NOT_FOUND / AMBIGUOUS for the engine. With `keep`, it is
 * also kept for the call sent right behind this one (keptElement), which so needs no round trip of its own.
 */
export function pickElement(spec: QuerySpec, nth: number | undefined, keep?: number): Element {
  const state = globalThis as unknown as { __cmKept?: { keep: number; element: Element } };
  state.__cmKept = undefined;
  const matches = __cm.queryElements(spec);
  const what =
    spec.selector !== undefined
      ? `selector "${spec.selector}"`
      : `role "${spec.role ?? '*'}"${spec.name !== undefined ? ` name "${spec.name}"` : ''}`;
  if (nth !== undefined && !matches[nth])
    throw new Error(`NOT_FOUND: ${what} has ${matches.length} matches, no nth=${nth}.`);
  if (matches.length === 0) throw new Error(`NOT_FOUND: nothing matches ${what}.`);
  if (nth === undefined && matches.length > 1)
    throw new Error(`AMBIGUOUS: ${matches.length} elements match ${what}; pass nth (0-based) or use a ref.`);
  const element = matches[nth ?? 0]!;
  if (keep !== undefined) state.__cmKept = { keep, element };
  return element;
}

/** The element pickElement kept under `keep`, once; throws when that lookup failed or another came between. */
export function keptElement(keep: number): Element {
  const state = globalThis as unknown as { __cmKept?: { keep: number; element: Element } };
  const kept = state.__cmKept;
  state.__cmKept = undefined;
  if (kept?.keep !== keep) throw new Error('No element kept by the lookup before this call.');
  return kept.element;
}

/** What `frames` reports about this frame: its origin, how many visible controls it holds, and whether its iframe hides it (0×0 viewport). */
export function frameInfo(): { origin: string; controls: number; hidden: boolean } {
  const controls = __cm
    .deepQueryAll(document, '*')
    .filter((element) => __cm.isInteractive(element, __cm.ariaRole(element)) && !__cm.isHidden(element));
  return { origin: self.origin, controls: controls.length, hidden: innerWidth === 0 && innerHeight === 0 };
}

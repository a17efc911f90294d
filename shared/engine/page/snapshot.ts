// In-page snapshot walker: one pass over a frame's flat tree (open shadow roots, slots) into outline nodes (rendered as
// compact lines by snapshot-render.ts; a frame's walk is started by snapshot-frame.ts).

/** One outline entry. Roles 'text' and 'options' carry `text`; every other role may carry a name, states, a ref, a value, children. */
export interface SnapshotNode {
  role: string;
  name?: string;
  ref?: string;
  /** Rendered states, e.g. ' [checked] [level=2]'. */
  states?: string;
  value?: string;
  text?: string;
  children?: SnapshotNode[];
  /** Index of this iframe in the walk's owner list: the engine puts the child frame's outline under it. */
  owner?: number;
}

export interface WalkContext {
  /** Ref prefix of this frame: '' for the main frame, 'f2' for frame 2. */
  prefix: string;
  counter: { n: number };
  /** iframe elements met, in outline order. */
  owners: Element[];
  /** Lines wanted: once this many are settled (and `floor` elements were walked), the walk may stop. */
  want?: number;
  /** Elements walked before an early stop: a page walked whole within it has its total counted. */
  floor?: number;
  /** The outline so far, set when the walk stopped early: an exact prefix of the whole outline's lines. */
  early?: Outline;
  /** Open shadow roots the walk entered, and custom elements not defined yet (a definition may attach a root). */
  roots?: ShadowRoot[];
  pending?: Element[];
  /** Form fields whose state the walk read: a script setting one tells no mutation. */
  fields?: Element[];
  /** Elements whose computed style the walk read (the root's parent first): a style changes with no mutation. */
  styled?: Element[];
}

export interface Outline {
  lines: string[];
  /** [line index, owner index] of each iframe line. */
  owners: [number, number][];
  /** Whether a long text was cut short. */
  cut: boolean;
}

/** snapshotWalk in one go; a walk that stops early (context.want) returns no nodes and leaves `context.early` set. */
export function snapshotBuild(root: Element, context: WalkContext): SnapshotNode[] {
  const step = __cm.snapshotWalk(root, context).next();
  return step.done ? step.value : [];
}

/**
 * Outline nodes for `root` and what it contains, skipping what is hidden and folding role-less wrappers into their
 * parent. With `context.want`, the walk pauses (yields) once it holds that many settled lines, leaving them in
 * `context.early`; resumed after the caller cleared `early` and raised `want` (or left it unset: to the end), it
 * goes on from the same element, so a later page of the same document costs what that page costs.
 */
export function* snapshotWalk(root: Element, context: WalkContext): Generator<void, SnapshotNode[], void> {
  const NAME_MAX = 100;
  const VALUE_MAX = 200;
  const OPTIONS_MAX = 30;
  const SKIP = new Set([
    'script',
    'style',
    'noscript',
    'template',
    'head',
    'meta',
    'link',
    'base',
    'caption',
    'legend',
    'figcaption',
  ]);
  // Roles whose name (or value) is their content: it says it all, so their text is not repeated below them.
  const NAMED_BY_CONTENT = new Set([
    'button',
    'link',
    'heading',
    'tab',
    'menuitem',
    'menuitemcheckbox',
    'menuitemradio',
    'option',
    'checkbox',
    'radio',
    'switch',
    'treeitem',
    'tooltip',
  ]);
  // Containers whose content is shown below them; naming them from content would repeat it.
  const UNNAMED = new Set([
    'row',
    'cell',
    'gridcell',
    'columnheader',
    'rowheader',
    'listitem',
    'paragraph',
    'term',
    'definition',
    'blockquote',
  ]);
  const FOLDED = new Set(['', 'none', 'presentation', 'generic', 'rowgroup', 'separator']);
  // Where a drag may end, pointed at by the name a person reads (a form or search is typed into, its fields have refs).
  const DROP_TARGETS = new Set([
    'region',
    'main',
    'navigation',
    'complementary',
    'banner',
    'contentinfo',
    'list',
    'img',
  ]);
  // The hand a person sees over something they can drag (pointer-driven drag listeners cannot be seen from our world).
  const GRAB = new Set(['grab', 'grabbing', 'move', '-webkit-grab', '-webkit-grabbing']);
  const CONTROL_INSIDE =
    'a[href], button, input:not([type=hidden]), select, textarea, [contenteditable=""], [contenteditable=true], ' +
    '[role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=tab], [role=menuitem], [role=option], [role=textbox], [role=combobox]';

  interface State {
    /** Inside a <label> whose text already names its control. */
    quiet: boolean;
    /** Inside a control: descendants are part of it, not separate click targets. */
    inControl: boolean;
    /** The parent shows a pointer cursor (only the outermost pointer element is a click target). */
    pointer: boolean;
    /** The parent shows a grab or move cursor (only the outermost such element is a drag source). */
    grab: boolean;
  }

  const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
  const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

  const appendText = (out: SnapshotNode[], text: string) => {
    const last = out[out.length - 1];
    if (last?.role === 'text') last.text += text;
    else out.push({ role: 'text', text });
  };
  // Block boundaries separate words that inline boundaries join ("$<b>12</b>.00" stays "$12.00").
  const breakText = (out: SnapshotNode[]) => {
    const last = out[out.length - 1];
    if (last?.role === 'text') last.text += ' ';
  };
  const finish = (nodes: SnapshotNode[]) =>
    nodes.filter((node) => node.role !== 'text' || (node.text = squash(node.text ?? '')) !== '');
  const onlyControls = (nodes: SnapshotNode[]): SnapshotNode[] =>
    nodes.flatMap((node) => (node.ref ? [node] : onlyControls(node.children ?? [])));

  // Stopping early (context.want): the nodes being filled, outermost first, with what each has gathered so far.
  const open: { node: SnapshotNode; children: SnapshotNode[] }[] = [];
  const top: SnapshotNode[] = [];
  // Walks inside a control gather its nested controls only: no stop inside them.
  let nested = 0;
  let visited = 0;
  // Elements walked when this stretch of the walk began: checks are spaced by what this stretch walked.
  let base = 0;
  let nextCheck = Math.max(context.floor ?? 0, context.want ?? Infinity);
  // Finished copies of a list's nodes; the innermost list's last text is left out, as more text may join it.
  const settledCopy = (nodes: SnapshotNode[], innermost: boolean) =>
    (innermost && nodes[nodes.length - 1]?.role === 'text' ? nodes.slice(0, -1) : nodes).flatMap((node) =>
      node.role !== 'text' ? [node] : squash(node.text ?? '') ? [{ role: 'text', text: squash(node.text ?? '') }] : [],
    );
  // Renders what the walk has so far; keeps it and stops the walk when it holds `want` lines that the rest of the
  // page cannot change (every open node already renders as a block of two or more lines, see snapshotRender).
  const tryStop = () => {
    nextCheck = visited + Math.max(64, (visited - base) >> 2);
    const marked = new Set<SnapshotNode>();
    let inner: SnapshotNode | undefined;
    for (let depth = open.length - 1; depth >= 0; depth--) {
      const { node, children } = open[depth]!;
      inner = { ...node, children: [...settledCopy(children, !inner), ...(inner ? [inner] : [])] };
      marked.add(inner);
    }
    const rendered = __cm.snapshotRender([...settledCopy(top, !inner), ...(inner ? [inner] : [])], marked);
    if (rendered.settled && rendered.lines.length >= context.want!) context.early = rendered;
  };

  function* walkChildren(element: Element, out: SnapshotNode[], textOn: boolean, state: State) {
    for (const child of Array.from(__cm.flatChildren(element))) {
      if (child.nodeType === Node.TEXT_NODE) {
        if (textOn) appendText(out, (child as Text).data);
      } else if (child.nodeType === Node.ELEMENT_NODE) {
        if (visited >= nextCheck && nested === 0) tryStop();
        if (context.early) {
          const had = context.early.lines.length;
          yield;
          // Each line takes an element at least: no check before that many more are walked.
          base = visited;
          nextCheck = visited + Math.max(64, (context.want ?? Infinity) - had);
        }
        yield* visit(child as Element, out, state);
      }
    }
  }

  const valueOf = (element: Element, role: string): string | undefined => {
    const tag = element.localName;
    if (tag === 'input') {
      const input = element as HTMLInputElement;
      if (role === 'checkbox' || role === 'radio' || (role === 'button' && input.type !== 'file')) return undefined;
      // A password, or a field whose label, name or autocomplete names a secret: the value never leaves the page.
      if (__cm.secretFieldName(input) !== null) return input.value ? '[value hidden]' : undefined;
      if (input.type === 'file')
        return input.files && input.files.length > 0
          ? Array.from(input.files, (file) => file.name).join(', ')
          : undefined;
      return input.value ? clip(input.value, VALUE_MAX) : undefined;
    }
    if (tag === 'textarea') {
      const value = (element as HTMLTextAreaElement).value;
      if (value && __cm.secretFieldName(element as HTMLTextAreaElement) !== null) return '[value hidden]';
      return value ? clip(value.replace(/\r?\n/g, '\\n'), VALUE_MAX) : undefined;
    }
    if (tag === 'select') {
      return (
        Array.from((element as HTMLSelectElement).selectedOptions, (option) => squash(option.label)).join(', ') ||
        undefined
      );
    }
    if (role === 'textbox' && (element as HTMLElement).isContentEditable)
      return clip(squash((element as HTMLElement).innerText), VALUE_MAX) || undefined;
    // A custom combobox shows its current choice as its text.
    if (role === 'combobox') return clip(__cm.visibleText(element, context.styled), VALUE_MAX) || undefined;
    if (tag === 'progress' || tag === 'meter')
      return `${(element as HTMLProgressElement).value}/${(element as HTMLProgressElement).max}`;
    if (role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'meter') {
      return element.getAttribute('aria-valuetext') ?? element.getAttribute('aria-valuenow') ?? undefined;
    }
    return undefined;
  };

  const optionsOf = (select: HTMLSelectElement): SnapshotNode => {
    const labels = Array.from(select.options, (option) => squash(option.label));
    const more = labels.length - OPTIONS_MAX;
    return {
      role: 'options',
      text:
        labels.slice(0, OPTIONS_MAX).join(' | ') +
        (more > 0 ? ` … ${more} more (get_text on the select lists all)` : ''),
    };
  };

  // A <label> whose control shows in the outline already gives that control its name; its text would say it twice.
  const labelNamesVisibleControl = (element: Element) => {
    const control = (element as HTMLLabelElement).control;
    return (
      !!control &&
      control.getClientRects().length > 0 &&
      !control.hasAttribute('aria-label') &&
      !control.hasAttribute('aria-labelledby')
    );
  };
  // Custom checkboxes hide the real input and style its label: the label is what a person clicks, with the input's state.
  const hiddenCheckable = (element: Element) => {
    const control = (element as HTMLLabelElement).control;
    return control instanceof HTMLInputElement &&
      (control.type === 'checkbox' || control.type === 'radio') &&
      control.getClientRects().length === 0
      ? control
      : null;
  };

  // Our own pill is no part of the page.
  const ours = __cm.indicatorHost();
  function* visit(element: Element, out: SnapshotNode[], state: State): Generator<void, void, void> {
    visited += 1;
    const tag = element.localName;
    if (element.shadowRoot) context.roots?.push(element.shadowRoot);
    else if (tag.includes('-') && !element.matches(':defined')) context.pending?.push(element);
    if (tag === 'input' || tag === 'textarea' || tag === 'select') context.fields?.push(element);
    if (
      SKIP.has(tag) ||
      element === ours ||
      element.getAttribute('aria-hidden') === 'true' ||
      element.hasAttribute('inert')
    )
      return;
    // Each read of a computed style is computed anew: every property is read once.
    const style = getComputedStyle(element);
    context.styled?.push(element);
    const display = style.display;
    if (display === 'none') return;
    const visible = style.visibility === 'visible';
    let role = visible ? __cm.ariaRole(element) : '';
    if (FOLDED.has(role) || (role === 'group' && tag === 'details')) role = '';
    const control = visible && __cm.isInteractive(element, role);
    const cursor = style.cursor;
    const pointer = cursor === 'pointer';
    const grab = GRAB.has(cursor);
    const page = element === document.body || element === document.documentElement;
    const namesControl = tag === 'label' && labelNamesVisibleControl(element);
    // Script-driven click targets (div soup): the outermost pointer-cursor, onclick or tabindex element outside any control.
    const clickable =
      !control &&
      visible &&
      !state.inControl &&
      !namesControl &&
      !page &&
      ((pointer && !state.pointer) ||
        element.hasAttribute('onclick') ||
        (element.hasAttribute('tabindex') && (element as HTMLElement).tabIndex >= 0));
    // A drag source a control's ref does not already reach: HTML5 draggable, or the outermost grab or move cursor.
    const draggable =
      !control &&
      visible &&
      !page &&
      (element.getAttribute('draggable')?.toLowerCase() === 'true' || (grab && !state.grab));
    const stand = tag === 'label' && visible ? hiddenCheckable(element) : null;
    if (stand) {
      context.fields?.push(stand);
      out.push({
        role: stand.type,
        name: clip(__cm.accessibleName(stand, context.styled), NAME_MAX),
        states: __cm.snapshotStates(stand, stand.type),
        ref: __cm.refFor(element, context.prefix, context.counter),
      });
      return;
    }
    if (role === '' && (draggable || clickable)) role = draggable ? 'draggable' : 'clickable';
    const quiet = state.quiet || namesControl;
    const inner: State = { quiet, inControl: state.inControl || control || clickable, pointer, grab };
    // content-visibility: hidden (hidden="until-found", collapsed sections) keeps the box but skips what is inside.
    const contentShown = style.contentVisibility !== 'hidden';

    if (role === '') {
      const block = !display.startsWith('inline') && display !== 'contents';
      if (block) breakText(out);
      if (tag === 'br') appendText(out, ' ');
      else if (tag !== 'svg' && tag !== 'img' && contentShown)
        yield* walkChildren(element, out, visible && !quiet, inner);
      if (block) breakText(out);
      return;
    }

    const node: SnapshotNode = { role };
    if (!UNNAMED.has(role)) {
      const name =
        role === 'iframe'
          ? element.getAttribute('title') || element.getAttribute('name') || ''
          : __cm.accessibleName(element, context.styled);
      if (name) node.name = clip(name, NAME_MAX);
    }
    if (control || clickable || draggable || (node.name && DROP_TARGETS.has(role)))
      node.ref = __cm.refFor(element, context.prefix, context.counter);
    const states = __cm.snapshotStates(element, role) + (draggable && role !== 'draggable' ? ' [draggable]' : '');
    if (states) node.states = states;
    const value = valueOf(element, role);
    if (value !== undefined) node.value = value;

    if (role === 'iframe') {
      node.owner = context.owners.push(element) - 1;
      out.push(node);
      return;
    }
    // An unnamed image tells nothing; an editable region's text is its value.
    if (role === 'img' && !node.name && !node.ref) return;
    if (role === 'textbox' && (element as HTMLElement).isContentEditable) {
      out.push(node);
      return;
    }
    let children: SnapshotNode[] = [];
    if (tag === 'select') {
      children = [optionsOf(element as HTMLSelectElement)];
    } else if (NAMED_BY_CONTENT.has(role) || role === 'combobox') {
      // The name holds the text; only controls nested inside (a link in a heading) still need their own lines.
      if (element.querySelector(CONTROL_INSIDE)) {
        const controls: SnapshotNode[] = [];
        nested += 1;
        yield* walkChildren(element, controls, false, { ...inner, quiet: true });
        nested -= 1;
        children = onlyControls(controls);
      }
    } else if (tag !== 'input' && tag !== 'textarea' && tag !== 'img' && tag !== 'svg' && contentShown) {
      open.push({ node, children });
      yield* walkChildren(element, children, visible && !quiet, inner);
      open.pop();
      children = finish(children);
    }
    if (children.length > 0) node.children = children;
    else if (!node.ref && !node.name && node.value === undefined) return;
    // `heading "Post": link "Post"` says the name twice; the control keeps it.
    if (children.length === 1 && children[0]!.name === node.name) delete node.name;
    // A list item that only wraps one control adds a line and nothing else.
    if (role === 'listitem' && !node.ref && children.length === 1 && children[0]!.role !== 'text') {
      out.push(children[0]!);
      return;
    }
    out.push(node);
  }

  const parentCursor = root.parentElement ? getComputedStyle(root.parentElement).cursor : '';
  const state = { quiet: false, inControl: false, pointer: parentCursor === 'pointer', grab: GRAB.has(parentCursor) };
  yield* visit(root, top, state);
  return finish(top);
}

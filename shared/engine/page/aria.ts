// In-page ARIA role, accessible name and interactivity (a practical subset of WAI-ARIA, HTML-AAM and accname, tuned for snapshots).

/** The element's ARIA role: explicit role first, then the implicit role of its tag; '' when it has none. */
export function ariaRole(element: Element): string {
  const explicit = element.getAttribute('role')?.trim().split(/\s+/)[0];
  if (explicit) return explicit.toLowerCase();
  const tag = element.localName;
  // Context-dependent landmarks and regions follow HTML-AAM: only named sections and forms are regions.
  const named = () =>
    element.hasAttribute('aria-label') || element.hasAttribute('aria-labelledby') || element.hasAttribute('title');
  switch (tag) {
    case 'a':
    case 'area':
      return element.hasAttribute('href') ? 'link' : '';
    case 'button':
      return 'button';
    case 'select':
      return (element as HTMLSelectElement).multiple || (element as HTMLSelectElement).size > 1
        ? 'listbox'
        : 'combobox';
    case 'textarea':
      return 'textbox';
    case 'input': {
      const type = ((element as HTMLInputElement).type || 'text').toLowerCase();
      if (type === 'checkbox') return 'checkbox';
      if (type === 'radio') return 'radio';
      if (type === 'button' || type === 'submit' || type === 'reset' || type === 'image' || type === 'file')
        return 'button';
      if (type === 'range') return 'slider';
      if (type === 'number') return 'spinbutton';
      if (type === 'search') return element.hasAttribute('list') ? 'combobox' : 'searchbox';
      if (type === 'hidden') return '';
      return element.hasAttribute('list') ? 'combobox' : 'textbox';
    }
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      return 'heading';
    case 'img':
      return element.getAttribute('alt') === '' ? 'presentation' : 'img';
    case 'ul':
    case 'ol':
    case 'menu':
      return 'list';
    case 'li':
      return 'listitem';
    case 'dt':
      return 'term';
    case 'dd':
      return 'definition';
    case 'table':
      return 'table';
    case 'caption':
      return 'caption';
    case 'thead':
    case 'tbody':
    case 'tfoot':
      return 'rowgroup';
    case 'tr':
      return 'row';
    case 'td':
      return element.closest('table')?.getAttribute('role') === 'grid' ? 'gridcell' : 'cell';
    case 'th':
      return element.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
    case 'option':
      return 'option';
    case 'optgroup':
    case 'fieldset':
    case 'details':
      return 'group';
    case 'summary':
      return 'button';
    case 'nav':
      return 'navigation';
    case 'main':
      return 'main';
    case 'aside':
      return 'complementary';
    case 'header':
      return element.closest('article, aside, main, nav, section') ? '' : 'banner';
    case 'footer':
      return element.closest('article, aside, main, nav, section') ? '' : 'contentinfo';
    case 'section':
      return named() ? 'region' : '';
    case 'form':
      return named() ? 'form' : '';
    case 'search':
      return 'search';
    case 'article':
      return 'article';
    case 'blockquote':
      return 'blockquote';
    case 'p':
      return 'paragraph';
    case 'hr':
      return 'separator';
    case 'figure':
      return 'figure';
    case 'progress':
      return 'progressbar';
    case 'meter':
      return 'meter';
    case 'output':
      return 'status';
    case 'dialog':
      return 'dialog';
    case 'iframe':
    case 'frame':
      return 'iframe';
    case 'svg':
      return element.hasAttribute('aria-label') ||
        element.hasAttribute('aria-labelledby') ||
        element.querySelector(':scope > title')
        ? 'img'
        : '';
    default:
      if (
        (element as HTMLElement).isContentEditable &&
        !(element.parentElement as HTMLElement | null)?.isContentEditable
      )
        return 'textbox';
      return '';
  }
}

/**
 * The accessible name: aria-labelledby, aria-label, native labelling (label, legend, caption, alt), content for roles
 * named by content, then title / placeholder. `styled` gathers the elements whose computed style the content read.
 */
export function accessibleName(element: Element, styled?: Element[]): string {
  const clean = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
  // Label text without the controls inside the label: a <select> in a <label> must not add every option to the name.
  const textWithoutControls = (node: Node): string => {
    let text = '';
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) text += child.textContent ?? '';
      else if (child instanceof Element && !/^(select|textarea|input|button|script|style)$/.test(child.localName))
        text += ` ${textWithoutControls(child)} `;
    }
    return text;
  };
  const labelledBy = element.getAttribute('aria-labelledby');
  if (labelledBy) {
    const root = element.getRootNode() as Document | ShadowRoot;
    const text = labelledBy
      .split(/\s+/)
      .map((id) => root.getElementById?.(id)?.textContent ?? '')
      .join(' ');
    if (clean(text)) return clean(text);
  }
  const label = clean(element.getAttribute('aria-label'));
  if (label) return label;
  const tag = element.localName;
  const control = element as HTMLInputElement;
  const labels = __cm.labelsOf(element);
  if (labels.length > 0) {
    const text = clean(labels.map((node) => textWithoutControls(node)).join(' '));
    if (text) return text;
  }
  if (tag === 'input') {
    const type = control.type;
    if (type === 'submit' || type === 'button' || type === 'reset')
      return clean(control.value) || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
    if (type === 'image') return clean(element.getAttribute('alt')) || clean(element.getAttribute('title')) || 'Submit';
  }
  const firstChild = (selector: string) => Array.from(element.children).find((child) => child.matches(selector));
  if (tag === 'fieldset') {
    const legend = clean(firstChild('legend')?.textContent);
    if (legend) return legend;
  }
  if (tag === 'table') {
    const caption = clean(firstChild('caption')?.textContent);
    if (caption) return caption;
  }
  if (tag === 'figure') {
    const caption = clean(firstChild('figcaption')?.textContent);
    if (caption) return caption;
  }
  if (tag === 'details') {
    const summary = clean(firstChild('summary')?.textContent);
    if (summary) return summary;
  }
  if (tag === 'img' || tag === 'area') {
    const alt = clean(element.getAttribute('alt'));
    if (alt) return alt;
  }
  if (tag === 'svg') {
    const title = clean(firstChild('title')?.textContent);
    if (title) return title;
  }
  const role = __cm.ariaRole(element);
  if (
    [
      'button',
      'link',
      'heading',
      'option',
      'cell',
      'gridcell',
      'columnheader',
      'rowheader',
      'tab',
      'menuitem',
      'menuitemcheckbox',
      'menuitemradio',
      'listitem',
      'checkbox',
      'radio',
      'switch',
      'treeitem',
      'tooltip',
      'term',
    ].includes(role)
  ) {
    const text = clean(__cm.visibleText(element, styled));
    if (text) return text;
    // Icon-only controls: the name comes from the image inside.
    const image = element.querySelector('img[alt]:not([alt=""]), [aria-label], svg title');
    const imageName = image
      ? clean(image.getAttribute('alt') ?? image.getAttribute('aria-label') ?? image.textContent)
      : '';
    if (imageName) return imageName;
  }
  const title = clean(element.getAttribute('title'));
  if (title) return title;
  if (tag === 'input' || tag === 'textarea') return clean(control.placeholder);
  return '';
}

/** Whether a person can operate the element: native controls, links, widget roles, editable roots. */
export function isInteractive(element: Element, role: string): boolean {
  const tag = element.localName;
  if (
    tag === 'button' ||
    tag === 'select' ||
    tag === 'textarea' ||
    ((tag === 'a' || tag === 'area') && element.hasAttribute('href'))
  )
    return true;
  if (tag === 'input') return (element as HTMLInputElement).type !== 'hidden';
  if (tag === 'summary') return element.parentElement?.localName === 'details';
  if ((element as HTMLElement).isContentEditable && !(element.parentElement as HTMLElement | null)?.isContentEditable)
    return true;
  return [
    'button',
    'link',
    'checkbox',
    'radio',
    'switch',
    'tab',
    'menuitem',
    'menuitemcheckbox',
    'menuitemradio',
    'option',
    'combobox',
    'textbox',
    'searchbox',
    'slider',
    'spinbutton',
    'treeitem',
  ].includes(role);
}

/** Hidden from people and assistive tech: no box, visibility hidden, aria-hidden or inert (on it or an ancestor). */
export function isHidden(element: Element): boolean {
  // Options of a closed <select> have no box of their own; they are as visible as their select.
  const subject =
    element.localName === 'option' || element.localName === 'optgroup'
      ? (element.closest('select') ?? element)
      : element;
  if (subject.closest('[aria-hidden="true"], [inert]')) return true;
  const style = getComputedStyle(subject);
  if (style.display === 'contents') return subject.parentElement ? __cm.isHidden(subject.parentElement) : false;
  return !subject.checkVisibility({ visibilityProperty: true });
}

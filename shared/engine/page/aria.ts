// In-page ARIA role and accessible-name computation (a practical subset of WAI-ARIA / accname, tuned for snapshots).

/** The element's ARIA role: explicit role first, then the implicit role of its tag; '' when it has none. */
export function ariaRole(element: Element): string {
  const explicit = element.getAttribute('role')?.trim().split(/\s+/)[0];
  if (explicit) return explicit.toLowerCase();
  const tag = element.localName;
  switch (tag) {
    case 'a': return element.hasAttribute('href') ? 'link' : '';
    case 'button': return 'button';
    case 'select': return (element as HTMLSelectElement).multiple || (element as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox';
    case 'textarea': return 'textbox';
    case 'input': {
      const type = ((element as HTMLInputElement).type || 'text').toLowerCase();
      if (type === 'checkbox') return 'checkbox';
      if (type === 'radio') return 'radio';
      if (type === 'button' || type === 'submit' || type === 'reset' || type === 'image') return 'button';
      if (type === 'range') return 'slider';
      if (type === 'number') return 'spinbutton';
      if (type === 'search') return 'searchbox';
      if (type === 'hidden') return '';
      return element.hasAttribute('list') ? 'combobox' : 'textbox';
    }
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
    case 'img': return element.getAttribute('alt') === '' ? 'presentation' : 'img';
    case 'ul': case 'ol': return 'list';
    case 'li': return 'listitem';
    case 'table': return 'table';
    case 'tr': return 'row';
    case 'td': return 'cell';
    case 'th': return 'columnheader';
    case 'option': return 'option';
    case 'nav': return 'navigation';
    case 'main': return 'main';
    case 'form': return 'form';
    case 'dialog': return 'dialog';
    case 'iframe': return 'iframe';
    default: return '';
  }
}

/** The accessible name: aria-labelledby, aria-label, label, alt/title/placeholder, then text content for roles named by content. */
export function accessibleName(element: Element): string {
  const clean = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
  const labelledBy = element.getAttribute('aria-labelledby');
  if (labelledBy) {
    const root = element.getRootNode() as Document | ShadowRoot;
    const text = labelledBy.split(/\s+/).map((id) => root.getElementById?.(id)?.textContent ?? '').join(' ');
    if (clean(text)) return clean(text);
  }
  const label = clean(element.getAttribute('aria-label'));
  if (label) return label;
  const control = element as HTMLInputElement;
  if (control.labels && control.labels.length > 0) {
    return clean(Array.from(control.labels).map((node) => node.textContent).join(' '));
  }
  const alt = clean(element.getAttribute('alt')) || clean(element.getAttribute('title'));
  if (alt) return alt;
  if (element.localName === 'input') {
    const type = control.type;
    if (type === 'submit' || type === 'button' || type === 'reset') return clean(control.value) || (type === 'submit' ? 'Submit' : '');
    return clean(control.placeholder);
  }
  if (element.localName === 'textarea') return clean((element as HTMLTextAreaElement).placeholder);
  const role = __cm.ariaRole(element);
  if (['button', 'link', 'heading', 'option', 'cell', 'columnheader', 'tab', 'menuitem', 'listitem', 'checkbox', 'radio', 'switch'].includes(role)) {
    return clean((element as HTMLElement).innerText ?? element.textContent);
  }
  return '';
}

// In-page states of an outline entry (checked, expanded, level, disabled…), as the snapshot walker (snapshot.ts) renders them.

/** The element's rendered states for `role`, e.g. ' [checked] [level=2]'; '' when it has none. */
export function snapshotStates(element: Element, role: string): string {
  const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
  const attr = (name: string) => element.getAttribute(name);
  const tag = element.localName;
  const field = element as HTMLInputElement;
  let states = '';
  if (CHECKABLE.has(role)) {
    const checked = tag === 'input' ? (field.indeterminate ? 'mixed' : String(field.checked)) : attr('aria-checked');
    if (checked === 'true') states += ' [checked]';
    else if (checked === 'mixed') states += ' [checked=mixed]';
  }
  if (attr('aria-pressed') === 'true') states += ' [pressed]';
  if (attr('aria-selected') === 'true') states += ' [selected]';
  if (tag === 'summary' ? (element.parentElement as HTMLDetailsElement).open : attr('aria-expanded') === 'true')
    states += ' [expanded]';
  if (role === 'heading') states += ` [level=${/^h[1-6]$/.test(tag) ? tag[1] : (attr('aria-level') ?? '2')}]`;
  if (element.matches(':disabled') || attr('aria-disabled') === 'true') states += ' [disabled]';
  if (field.required === true || attr('aria-required') === 'true') states += ' [required]';
  if (((tag === 'input' || tag === 'textarea') && field.readOnly) || attr('aria-readonly') === 'true')
    states += ' [readonly]';
  if (attr('aria-invalid') === 'true') states += ' [invalid]';
  return states;
}

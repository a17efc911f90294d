// In-page, for screenshot: password, card and other secret fields painted over while the frame is captured, then put back.

interface MaskedField {
  field: HTMLElement;
  /** Each property the mask set, with the field's own inline value and priority before it. */
  saved: [property: string, value: string, priority: string][];
}

/**
 * Masks (`on`) or restores the frame's filled secret fields; answers how many it masked. A secret field is one the
 * password and secret-field rules flag (what snapshot hides), or one for card data. Inline `!important` through
 * CSSOM, which a page's CSP (style-src) does not block and which beats the page's own rules; the text is made
 * transparent and an inset shadow paints the box one colour over any background, Chrome's autofill one included
 * (its UA `!important` colours win over any page style, but it sets neither of these). No layout changes.
 */
export function maskSecretFields(on: boolean): number {
  const MASK: [string, string][] = [
    ['-webkit-text-fill-color', 'transparent'],
    ['color', 'transparent'],
    ['text-shadow', 'none'],
    ['caret-color', 'transparent'],
    ['box-shadow', 'inset 0 0 0 100vmax rgb(128, 128, 128)'],
  ];
  // Controls that show no typed value (a checkbox named "token" shows a tick, not its value).
  const UNMASKED = new Set([
    'hidden',
    'checkbox',
    'radio',
    'submit',
    'button',
    'reset',
    'image',
    'file',
    'range',
    'color',
  ]);
  const scope = globalThis as unknown as { __cmMasked?: MaskedField[] };
  for (const { field, saved } of scope.__cmMasked ?? []) {
    for (const [property, value, priority] of saved) {
      if (value) field.style.setProperty(property, value, priority);
      else field.style.removeProperty(property);
    }
  }
  scope.__cmMasked = [];
  if (!on) return 0;
  const fields = __cm.deepQueryAll(document, 'input, textarea, select') as (
    HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement
  )[];
  for (const field of fields) {
    if (field.value === '' || UNMASKED.has((field as HTMLInputElement).type)) continue;
    const secret =
      __cm.isPaymentField(field) ||
      (field.localName !== 'select' && __cm.secretFieldName(field as HTMLInputElement) !== null);
    if (!secret) continue;
    const saved = MASK.map(
      ([property]) =>
        [property, field.style.getPropertyValue(property), field.style.getPropertyPriority(property)] as [
          string,
          string,
          string,
        ],
    );
    for (const [property, value] of MASK) field.style.setProperty(property, value, 'important');
    scope.__cmMasked.push({ field, saved });
  }
  return scope.__cmMasked.length;
}

// What inspect reads of one element inside its page: its tag, its attributes (a secret field's value hidden, as
// snapshot and get_html hide it) and its computed styles by name (shorthands such as margin read whole).

export interface ElementFacts {
  tag: string;
  attributes: [name: string, value: string][];
  styles: [name: string, value: string][];
}

export function inspectFacts(element: Element, styleNames: string[]): ElementFacts {
  const field = element.localName === 'input' || element.localName === 'textarea';
  const secret = field && __cm.secretFieldName(element as HTMLInputElement) !== null;
  const attributes = Array.from(element.attributes, (attribute): [string, string] => [
    attribute.name,
    secret && attribute.name === 'value' && attribute.value !== '' ? '[value hidden]' : attribute.value,
  ]);
  const computed = getComputedStyle(element);
  const styles = styleNames.map((name): [string, string] => [name, computed.getPropertyValue(name).trim()]);
  return { tag: element.localName, attributes, styles };
}

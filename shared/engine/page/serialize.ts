// Turns an eval result into compact JSON text for the model. Shipped alone (not in `__cm`): it runs in the page's
// MAIN world on the result object itself, since objects of one world cannot be handed to another.

/**
 * JSON of `value` with what JSON cannot say spelled out: functions, DOM nodes, cycles, bigint, undefined, Map/Set.
 * Returns at most `maxChars` of the text plus the full length, so a huge value never crosses the wire whole.
 */
export function serializeForModel(value: unknown, maxChars: number): { text: string; total: number } {
  // Limits live inside the function: it is shipped by its source text, so module constants would not exist there.
  const MAX_DEPTH = 6;
  const MAX_ITEMS = 100;
  const ancestors: object[] = [];
  let budget = 5_000;

  const nodeLabel = (node: Node): string => {
    if (node instanceof Element) {
      const id = node.id ? `#${node.id}` : '';
      const classes = [...node.classList]
        .slice(0, 3)
        .map((name) => `.${name}`)
        .join('');
      const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      return `<${node.localName}${id}${classes}${text ? ` "${text}"` : ''}>`;
    }
    if (node instanceof Document) return `#document ${node.URL}`;
    if (node instanceof Text) return `#text "${(node.data ?? '').slice(0, 40)}"`;
    return node.nodeName;
  };

  const walk = (item: unknown, depth: number): unknown => {
    if (item === undefined) return '[undefined]';
    if (item === null || typeof item === 'boolean' || typeof item === 'string') return item;
    if (typeof item === 'number') return Number.isFinite(item) ? item : String(item);
    if (typeof item === 'bigint') return `${item}n`;
    if (typeof item === 'symbol') return item.toString();
    if (typeof item === 'function') return `[Function ${item.name || 'anonymous'}]`;
    const object = item as object;
    try {
      if (object instanceof Node) return nodeLabel(object);
      if (Object.prototype.toString.call(object) === '[object Window]')
        return `[Window ${(object as Window).location.href}]`;
      if (object instanceof Error) return `${object.name}: ${object.message}`;
      if (object instanceof Date) return Number.isNaN(object.getTime()) ? 'Invalid Date' : object.toISOString();
      if (object instanceof RegExp) return String(object);
      if (object instanceof Promise) return '[Promise]';
      if (ArrayBuffer.isView(object)) return `[${object.constructor.name}(${object.byteLength} bytes)]`;
    } catch {
      // A cross-origin window or a hostile getter: say so instead of failing the whole result.
      return '[unreadable]';
    }
    if (ancestors.includes(object)) return '[Circular]';
    budget -= 1;
    const list = Array.isArray(object) || object instanceof NodeList || object instanceof HTMLCollection;
    if (depth >= MAX_DEPTH || budget < 0)
      return list ? `[Array(${(object as ArrayLike<unknown>).length})]` : '[Object]';
    ancestors.push(object);
    try {
      const items = (source: Iterable<unknown>, size: number) => {
        const out = [...source].slice(0, MAX_ITEMS).map((entry) => walk(entry, depth + 1));
        if (size > MAX_ITEMS) out.push(`… ${size - MAX_ITEMS} more`);
        return out;
      };
      if (list) return items(Array.from(object as ArrayLike<unknown>), (object as ArrayLike<unknown>).length);
      if (object instanceof Map) return { '[Map]': items(object.entries(), object.size) };
      if (object instanceof Set) return { '[Set]': items(object.values(), object.size) };
      const withJson = object as { toJSON?: () => unknown };
      if (typeof withJson.toJSON === 'function') return walk(withJson.toJSON(), depth + 1);
      const keys = Object.keys(object);
      const out: Record<string, unknown> = {};
      for (const key of keys.slice(0, MAX_ITEMS)) {
        try {
          out[key] = walk((object as Record<string, unknown>)[key], depth + 1);
        } catch (error) {
          out[key] = `[threw ${String(error)}]`;
        }
      }
      if (keys.length > MAX_ITEMS) out['…'] = `${keys.length - MAX_ITEMS} more keys`;
      return out;
    } finally {
      ancestors.pop();
    }
  };

  const shaped = walk(value, 0);
  // A lone marker ("[Function f]", "<button#go>") reads better bare than as a quoted JSON string.
  const text = typeof shaped === 'string' ? shaped : JSON.stringify(shaped);
  return { text: text.slice(0, maxChars), total: text.length };
}

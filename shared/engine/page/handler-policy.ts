// Trusted Types' default policy for the handler hold (handler-policy.ts ships these by their source text into a page's
// MAIN world, where a policy must live to serve the page): no module-level state or imports used at run time.

// Chrome's Trusted Types API, not yet in TypeScript's DOM library.
declare const trustedTypes: {
  createPolicy(name: string, rules: Record<string, (...args: never[]) => string>): unknown;
};

interface Installed {
  sentinel: Element | null;
  note: (text: string, sink: string, html: boolean) => string;
}

export function installHandlerPolicy(key: string): Element | null {
  const own = Object.getOwnPropertyDescriptor(window, key);
  if (own) return (own.value as Installed).sentinel;
  const apply = Reflect.apply;
  const setAttribute = Element.prototype.setAttribute;
  const exec = RegExp.prototype.exec;
  // As handler-texts.ts reads a handler's name; a sink Chrome names "Element onclick" takes a handler's code.
  const handlerAttribute = /[\t\n\f\r /"']on[a-z]+[\t\n\f\r ]*=/i;
  const handlerSink = / on[a-z]+$/i;
  const sentinel = document.createElement('chrome-mcp-handlers');
  let count = 0;
  const note = (text: string, sink: string, html: boolean): string => {
    if (apply(exec, html ? handlerAttribute : handlerSink, [html ? text : sink]) !== null)
      apply(setAttribute, sentinel, ['n', String(++count)]);
    return text;
  };
  const installed: Installed = { sentinel: null, note };
  try {
    trustedTypes.createPolicy('default', {
      createHTML: (text: string, _type: unknown, sink: string) => note(text, sink, true),
      createScript: (text: string, _type: unknown, sink: string) => note(text, sink, false),
      createScriptURL: (text: string) => text,
    });
    const meta = document.createElement('meta');
    meta.httpEquiv = 'Content-Security-Policy';
    meta.content = "require-trusted-types-for 'script'";
    if (!document.head) throw new Error('no head');
    document.head.append(meta);
    installed.sentinel = sentinel;
  } catch {
    // Unobserved: the page keeps its own sinks as they were.
  }
  Object.defineProperty(window, key, { value: Object.freeze(installed) });
  return installed.sentinel;
}

export function forwardHandlerPolicy(key: string): void {
  let maker: Installed | undefined;
  try {
    if (window.parent !== window) maker = Object.getOwnPropertyDescriptor(window.parent, key)?.value as Installed;
  } catch {
    // Another origin's frame holds this one: not the script's to write into.
  }
  if (!maker) return;
  const note = maker.note;
  try {
    trustedTypes.createPolicy('default', {
      createHTML: (text: string, _type: unknown, sink: string) => note(text, sink, true),
      createScript: (text: string, _type: unknown, sink: string) => note(text, sink, false),
      createScriptURL: (text: string) => text,
    });
  } catch {
    // The document has its own default policy.
  }
}

// Trusted Types' default policy for the handler hold (handler-policy.ts ships these by their source text into a page's
// MAIN world, where a policy must live to serve the page): no module-level state or imports used at run time.

interface PolicyFactory {
  createPolicy(name: string, rules: Record<string, (...args: never[]) => string>): unknown;
}

interface Installed {
  sentinel: Element | null;
  note: (text: string, sink: string, html: boolean) => string;
  /**
   * Gives a window of this document's making (a blank frame, a window it opens) a policy handing strings to `note`, and
   * the same for the windows that one opens: a window opened onto about:blank is made before any script of ours could
   * run in it.
   */
  adopt: (made: Window | null) => boolean;
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
  // A blank window this document makes inherits its enforcement: without a policy its page's own HTML strings would throw.
  const adopt = (made: Window | null): boolean => {
    try {
      (made as unknown as { trustedTypes: PolicyFactory }).trustedTypes.createPolicy('default', {
        createHTML: (text: string, _type: unknown, sink: string) => note(text, sink, true),
        createScript: (text: string, _type: unknown, sink: string) => note(text, sink, false),
        createScriptURL: (text: string) => text,
      });
      const open = made!.open;
      made!.open = function (this: unknown, ...args: unknown[]) {
        const opened = apply(open, this, args) as Window | null;
        adopt(opened);
        return opened;
      };
      return true;
    } catch {
      // Another origin's window, or one with a default policy already.
      return false;
    }
  };
  const installed: Installed = { sentinel: null, note, adopt };
  try {
    if (!adopt(window)) throw new Error('a default policy of the page');
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
  maker.adopt(window);
}

// Trusted Types' default policy for the handler hold (handler-policy.ts ships these by their source text into a page's
// MAIN world, where a policy must live to serve the page): no module-level state or imports used at run time.

type Rule = (text: string, type: unknown, sink: unknown) => unknown;
type RuleName = 'createHTML' | 'createScript' | 'createScriptURL';
type Rules = Partial<Record<RuleName, Rule>>;

interface PolicyFactory {
  createPolicy(name: string, rules?: Rules): unknown;
}

interface Adopted {
  policy: unknown;
  /** Whether the window's own CSP requires Trusted Types, ours aside. */
  enforces: boolean;
}

interface Installed {
  note: (text: string, sink: string, html: boolean) => string;
  /**
   * Makes the default policy of a window (this one, a blank frame or a window it opens) handing strings to `note`, and
   * the same for the windows that one opens: a window opened onto about:blank is made before any script of ours could
   * run in it. `enforces`: a blank window inherits its maker's CSP; asked of the window when not given. `page`: the
   * rules of the page's own default policy, when it is making one now.
   */
  adopt: (made: Window | null, enforces?: boolean, page?: Rules) => Adopted | null;
  /** This document's default policy is ours (with the page's, if it made one, behind it). */
  ours: () => boolean;
  /** Whether this document's own CSP requires Trusted Types, ours aside. */
  enforces: () => boolean;
  /** Trusted Types required here, by the page's CSP or a meta of ours (now, or as the parser makes `<head>`). */
  enforce: () => boolean;
}

/**
 * Installs the policy in this document, once: each write that can hold a handler, or a frame's srcdoc, pauses the
 * debugger in it (not heard where the page made a default policy of its own before ours, nor with no `<head>`).
 * `atEval`: the agent's script is about to run, so the policy is made now and Trusted Types enforced (a meta CSP where
 * the page has none). Otherwise, at a new document's start: with `maker` (the policy
 * of the parent, for a blank frame or a frame of the site navigated after the eval) the same, handing strings to the
 * maker's, as the script may write here with no eval to come; with none (a document of a site the agent may read)
 * only a default policy the page makes is taken behind ours, and ours made at the next eval.
 */
export function installHandlerPolicy(key: string, atEval: boolean, maker?: Installed): void {
  const known = Object.getOwnPropertyDescriptor(window, key)?.value as Installed | undefined;
  if (known) {
    if (atEval && (known.ours() || known.adopt(window) !== null)) known.enforce();
    return;
  }
  const apply = Reflect.apply;
  const exec = RegExp.prototype.exec;
  const define = Object.defineProperty;
  // As handler-texts.ts reads a handler's name; a sink Chrome names "Element onclick" takes a handler's code. So do a
  // timer's string and a script element's text, which V8 compiles naming no writer (a timer's) or only the top frame of
  // its stack (a page's function inserting it, as jQuery's globalEval does): sink names measured on Chromium 150. And
  // an eval's string (sink "eval", direct or not: Chromium 156), named by the top frame alone too, and a direct eval
  // meets no breakpoint on `eval` (script-compiles.ts): a page's function evaluating what the script hands it.
  const handlerAttribute = /[\t\n\f\r /"']on[a-z]+[\t\n\f\r ]*=/i;
  const handlerSink =
    / on[a-z]+$|^Window set(Timeout|Interval)$|^HTMLScriptElement (text|textContent|innerText)$|^eval$/i;
  // A frame's srcdoc is a document's HTML, all the writer's: its frame is told of it (handler-setters.ts).
  const srcdocSink = 'HTMLIFrameElement srcdoc';
  const factoryHere = (window as unknown as { trustedTypes: PolicyFactory }).trustedTypes;
  const createHere = factoryHere.createPolicy;
  const probe = `chrome-mcp-probe-${key}`;
  let mine: Adopted | null = null;
  let meta = false;
  const note =
    maker?.note ??
    ((text: string, sink: string, html: boolean): string => {
      // The debugger pauses here, so the paused stack names the writer. A statement, not a DOM breakpoint on a node of
      // ours: a child frame's commit drops those (measured on Chromium 156), and a write as its new document loaded
      // went unheard until one stood again. The trail's sessions keep breakpoints active (egress-trail.ts).
      if (sink === srcdocSink || apply(exec, html ? handlerAttribute : handlerSink, [html ? text : sink]) !== null)
        // eslint-disable-next-line no-debugger
        debugger;
      return text;
    });
  const adopt = (made: Window | null, enforces?: boolean, rules?: Rules): Adopted | null => {
    try {
      const factory = (made as unknown as { trustedTypes: PolicyFactory }).trustedTypes;
      // This window's is taken before ours wraps it: the wrapper would hand our own policy to us.
      const create = made === window ? createHere : factory.createPolicy;
      const copy = (given: Rules | undefined): Rules => ({
        createHTML: given?.createHTML,
        createScript: given?.createScript,
        createScriptURL: given?.createScriptURL,
      });
      /** The page's own default rules, once it makes them: they decide, as they did before us. */
      let page: Rules | null = rules ? copy(rules) : null;
      let probed = false;
      const rule =
        (name: RuleName, html: boolean): Rule =>
        (text, type, sink) => {
          if (text === probe) return ((probed = true), text);
          // A sink Chrome calls us for names itself; the page calling its default policy directly names none.
          const named = typeof sink === 'string' ? sink : '';
          note(text, named, html);
          // Chrome calls a page's default policy for its sinks only where its own CSP asks.
          if (page === null || (!adopted.enforces && named !== '')) return text;
          const own = page[name];
          if (typeof own !== 'function') return null;
          const out = apply(own, undefined, [text, type, sink]);
          // What the page's rule gives is what a handler gets.
          if (typeof out === 'string' && out !== text) note(out, named, html);
          return out;
        };
      const policy = apply(create, factory, [
        'default',
        {
          createHTML: rule('createHTML', true),
          createScript: rule('createScript', false),
          createScriptURL: rule('createScriptURL', false),
        },
      ]);
      const adopted: Adopted = { policy, enforces: enforces ?? false };
      if (enforces === undefined) {
        // Before any meta of ours, Chrome asks a default policy only where the document's own CSP requires it.
        made!.document.createElement('div').innerHTML = probe;
        adopted.enforces = probed;
      }
      // A default policy the page makes after ours goes behind ours; until it makes one it sees none.
      define(factory, 'createPolicy', {
        configurable: true,
        writable: true,
        value: function createPolicy(this: unknown, name: string, given?: Rules) {
          if (name !== 'default' || page !== null || this !== factory) return apply(create, this, [name, given]);
          page = copy(given);
          return policy;
        },
      });
      define(factory, 'defaultPolicy', { configurable: true, get: () => (page === null ? null : policy) });
      const open = made!.open;
      made!.open = function (this: unknown, ...args: unknown[]) {
        const opened = apply(open, this, args) as Window | null;
        adopt(opened, adopted.enforces);
        return opened;
      };
      return adopted;
    } catch {
      // Another origin's window, or one with a default policy already.
      return null;
    }
  };
  const adoptHere = (made: Window | null, enforces?: boolean, rules?: Rules): Adopted | null =>
    made !== window ? adopt(made, enforces, rules) : (mine ??= adopt(window, enforces, rules));
  const addMeta = (): boolean => {
    if (!document.head) return false;
    const element = document.createElement('meta');
    element.httpEquiv = 'Content-Security-Policy';
    element.content = "require-trusted-types-for 'script'";
    document.head.append(element);
    return (meta = true);
  };
  const enforce = (): boolean => mine !== null && (mine.enforces || meta || addMeta());
  const installed: Installed = Object.freeze({
    note,
    adopt: adoptHere,
    ours: () => mine !== null,
    enforces: () => mine?.enforces ?? false,
    enforce,
  });
  define(window, key, { value: installed });
  if (atEval) {
    if (adoptHere(window)) enforce();
    return;
  }
  if (maker) {
    // about:blank, about:srcdoc and blob: documents take their maker's CSP, ours with it.
    const inherits = location.protocol === 'about:' || location.protocol === 'blob:';
    if (!adoptHere(window, inherits ? maker.enforces() : undefined) || inherits || enforce()) return;
    // No <head> yet at a document's start: the meta goes in as the parser makes it, before any script of the page runs.
    const watch = new MutationObserver(() => enforce() && watch.disconnect());
    watch.observe(document, { childList: true, subtree: true });
    return;
  }
  // The page's own default policy, made as it loads, is taken behind ours.
  define(factoryHere, 'createPolicy', {
    configurable: true,
    writable: true,
    value: function createPolicy(this: unknown, name: string, given?: Rules) {
      const made =
        name === 'default' && this === factoryHere && mine === null ? adoptHere(window, undefined, given) : null;
      return made ? made.policy : apply(createHere, this, [name, given]);
    },
  });
}

/**
 * At the start of each new document of the tab: one in a frame whose parent has the policy takes it at once, handing
 * strings to the parent's so the pause names its writer; one of a site the agent may read (`origins`) keeps a default
 * policy of its own behind ours.
 */
export function startHandlerPolicy(install: typeof installHandlerPolicy, key: string, origins: string[]): void {
  let maker: Installed | undefined;
  try {
    if (window.parent !== window) maker = Object.getOwnPropertyDescriptor(window.parent, key)?.value as Installed;
  } catch {
    // Another origin's frame holds this one: not the script's to write into.
  }
  // A parent with no policy of ours yet has had no eval: its blank frames keep its own enforcement as it is.
  if (maker?.ours()) install(key, false, maker);
  else if (origins.includes(location.origin)) install(key, false);
}

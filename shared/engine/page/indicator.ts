// In-page presence in the top frame: the "Chrome MCP is acting" pill and the person's Esc, both from our isolated world.

interface IndicatorState {
  host: HTMLElement;
  pill: HTMLElement;
  /** Until when (Date.now) the agent counts as acting here: the pill shows and Esc stops it. */
  until: number;
  hideTimer: ReturnType<typeof setTimeout> | undefined;
  /** The engine is about to send an Escape of its own: the next trusted one is that key, not the person's. */
  ownEscape: boolean;
  /** The person pressed Esc: the pill says so until it expires or the agent acts again after a resume. */
  stopped: boolean;
}

/**
 * Shows the pill (or keeps it hidden while a screenshot is taken) and arms Esc for `ms` from now. The first call in a
 * document builds it: a host element under <html>, outside <body> where our reads start, holding a closed shadow root,
 * so the page can neither read the pill nor restyle it (`!important` inside a shadow root beats the page's own), and
 * it takes no clicks and no layout. `binding` is the CDP binding our world alone was given; calling it tells the engine.
 */
export function indicate(ms: number, shown: boolean, binding: string): void {
  const scope = globalThis as unknown as { __cmIndicator?: IndicatorState } & Record<string, unknown>;
  let state = scope.__cmIndicator;
  if (!state) {
    const host = document.createElement('chrome-mcp-indicator');
    const root = host.attachShadow({ mode: 'closed' });
    // A constructed sheet, not a <style>: a page's CSP (style-src) blocks inline styles even from our world.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(`
      :host { all: initial !important; display: block !important; position: fixed !important; z-index: 2147483647 !important;
        left: 50% !important; bottom: 16px !important; transform: translateX(-50%) !important; pointer-events: none !important;
        contain: layout style !important; }
      @media print { :host { display: none !important; } }
      div { font: 500 12px/1.5 system-ui, sans-serif; color: #fff; background: rgb(32 33 36 / 0.9); padding: 5px 12px;
        border-radius: 999px; box-shadow: 0 1px 4px rgb(0 0 0 / 0.35); white-space: nowrap; user-select: none; }
      div[hidden] { display: none; }`);
    root.adoptedStyleSheets = [sheet];
    const pill = document.createElement('div');
    root.append(pill);
    const made: IndicatorState = { host, pill, until: 0, hideTimer: undefined, ownEscape: false, stopped: false };
    state = made;
    scope.__cmIndicator = made;
    // Capture phase on window, the first stop of a key event: no handler on the document or its elements can swallow
    // it first (only a capture handler the page put on window before ours).
    addEventListener(
      'keydown',
      (event) => {
        // A page can dispatch an Escape of its own; only a real key (or the engine's, which says so first) is trusted.
        if (event.key !== 'Escape' || !event.isTrusted || event.repeat || Date.now() >= made.until) return;
        if (made.ownEscape) {
          made.ownEscape = false;
          return;
        }
        made.stopped = true;
        made.pill.textContent = 'Chrome MCP stopped';
        const stop = scope[binding];
        if (typeof stop === 'function') stop('');
      },
      true,
    );
  }
  // The page may have replaced <html>'s content; the pill goes back where it belongs.
  if (!state.host.isConnected) document.documentElement?.append(state.host);
  // The engine stops refreshing once stopped: a call here after a stop is a new run, after the person resumed.
  if (Date.now() >= state.until || state.stopped) state.pill.textContent = 'Chrome MCP is acting — Esc to stop';
  state.stopped = false;
  state.until = Date.now() + ms;
  state.pill.hidden = !shown;
  clearTimeout(state.hideTimer);
  const current = state;
  current.hideTimer = setTimeout(() => (current.pill.hidden = true), ms);
}

/** Our pill's host element, which every read of the page leaves out; null before the first `indicate`. */
export function indicatorHost(): Element | null {
  return (globalThis as unknown as { __cmIndicator?: IndicatorState }).__cmIndicator?.host ?? null;
}

/** Brackets the engine's own Escape: set before the key is sent, cleared once the renderer has handled it. */
export function expectOwnEscape(expected: boolean): void {
  const state = (globalThis as unknown as { __cmIndicator?: IndicatorState }).__cmIndicator;
  if (state) state.ownEscape = expected;
}

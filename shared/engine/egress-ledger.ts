// What the egress hold stopped, kept for every eval whose window was open at the time.

/** One request, as the browser named it. */
export interface Send {
  /**
   * The HTTP method, or `WebSocket`; absent when the browser did not say: the extension hears of a window its rules
   * blocked from webNavigation, which names none (a target=_blank form may have been a POST).
   */
  method?: string;
  /**
   * As the page asked for it; the report redacts it. Empty when not known: a request the extension found paused after a
   * restart that only the stopped worker was told of.
   */
  url: string;
  /** What asked for it, in the browser's words (Fetch, XHR, Ping, Image, Script, Other…), or `navigation`. */
  kind: string;
}

/** One window's list of what was held. */
export interface WindowSends {
  held(): Send[];
  stop(): void;
}

export class HeldLedger {
  private readonly open = new Set<Send[]>();

  /** Starts a window's list; it fills until `stop`. */
  start(): WindowSends {
    const list: Send[] = [];
    this.open.add(list);
    return { held: () => [...list], stop: () => this.open.delete(list) };
  }

  /** A request stopped before it left the browser. */
  held(send: Send): void {
    for (const list of this.open) list.push(send);
  }
}

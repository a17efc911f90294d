// What the egress hold saw leave or stopped, kept for every eval whose window was open at the time.

/** One request, as the browser named it. */
export interface Send {
  /** The HTTP method, or `WebSocket`. */
  method: string;
  /** As the page asked for it; the report redacts it. */
  url: string;
  /** What asked for it, in the browser's words (Fetch, XHR, Ping, Image, Script, Other…), or `navigation`. */
  kind: string;
}

/** One window's lists: what was held, and what the browser sent past the hold. */
export interface WindowSends {
  held(): Send[];
  escaped(): Send[];
  stop(): void;
}

export class HeldLedger {
  private readonly open = new Set<{ held: Send[]; escaped: Send[] }>();

  /** Starts a window's lists; they fill until `stop`. */
  start(): WindowSends {
    const lists = { held: [] as Send[], escaped: [] as Send[] };
    this.open.add(lists);
    return { held: () => [...lists.held], escaped: () => [...lists.escaped], stop: () => this.open.delete(lists) };
  }

  /** A request stopped before it left the browser. */
  held(send: Send): void {
    for (const lists of this.open) lists.held.push(send);
  }

  /** A request that left although the tab was held. */
  escaped(send: Send): void {
    for (const lists of this.open) lists.escaped.push(send);
  }
}

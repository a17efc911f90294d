// Numbers the MCP sessions open on this core ("1", "2", …, never reused): the engine keeps a current tab per session,
// and lets go of the tab of one that ended. It also knows which client each session is, once that client has
// introduced itself, for the person's panel and tray.
import { type ClientChange, cleanClientName, type McpClient } from '../../../shared/control/mcp-clients.js';

export interface AgentRegistryOptions {
  /** A session's client introduced itself, or the session of one that had ended. */
  onClient?: (change: ClientChange, client: McpClient) => void;
  now?: () => number;
}

interface Session {
  since: number;
  /** Cleaned; absent until the client has introduced itself. */
  name?: string;
}

export class AgentRegistry {
  private last = 0;
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly options: AgentRegistryOptions = {}) {}

  /** A new session's id. */
  open(): string {
    const id = String(++this.last);
    this.sessions.set(id, { since: (this.options.now ?? Date.now)() });
    return id;
  }

  /** The session's client finished `initialize` under `name` (its own words: cleaned here). Once per session. */
  introduce(id: string, name: string | undefined): void {
    const session = this.sessions.get(id);
    if (!session || session.name !== undefined) return;
    session.name = cleanClientName(name);
    this.options.onClient?.('connected', { id, name: session.name, since: session.since });
  }

  /** Ends the session; returns its client, if it had introduced itself. */
  close(id: string): McpClient | undefined {
    const session = this.sessions.get(id);
    this.sessions.delete(id);
    if (session?.name === undefined) return undefined;
    const client = { id, name: session.name, since: session.since };
    this.options.onClient?.('disconnected', client);
    return client;
  }

  /** The sessions open now, oldest first. */
  live(): string[] {
    return [...this.sessions.keys()];
  }

  /**
   * The clients connected now, oldest first: sessions whose client has introduced itself (one still in `initialize`
   * cannot call a tool yet, and has no name to show).
   */
  clients(): McpClient[] {
    return [...this.sessions].flatMap(([id, { since, name }]) => (name === undefined ? [] : [{ id, name, since }]));
  }
}

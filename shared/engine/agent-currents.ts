// Which tab each agent (MCP session) is on: its current tab, where its calls without a tab run, and a note for an
// agent whose current tab someone else closed, so that its next such call says so rather than landing elsewhere.
import type { AgentContext, OperationContext } from '../protocol/operations.js';

/** What a call without an agent stands for: the only agent there is. */
const SOLE_AGENT: AgentContext = { id: 'default', live: ['default'] };

export function agentOf(ctx: OperationContext): AgentContext {
  return ctx.agent ?? SOLE_AGENT;
}

export interface SavedCurrents {
  /** Agent id → host tab id. */
  currents: Record<string, string>;
  /** Agent id → handle of its current tab, closed by another agent or the person and not yet reported to it. */
  closed: Record<string, string>;
}

export class AgentCurrents {
  /** In order of use, the most recent last: `status` shows that one. */
  private readonly current: Map<string, string>;
  private readonly closed: Map<string, string>;

  constructor(saved?: SavedCurrents) {
    this.current = new Map(Object.entries(saved?.currents ?? {}));
    this.closed = new Map(Object.entries(saved?.closed ?? {}));
  }

  /** Lets go of the tabs of agents whose session ended, so a new agent may adopt them. */
  prune(agent: AgentContext): void {
    const open = new Set([agent.id, ...agent.live]);
    for (const map of [this.current, this.closed]) for (const id of map.keys()) if (!open.has(id)) map.delete(id);
  }

  of(agent: string): string | undefined {
    return this.current.get(agent);
  }

  set(agent: string, hostId: string): void {
    this.current.delete(agent);
    this.current.set(agent, hostId);
    // Moved on by its own choice: a tab it left needs no report any more.
    this.closed.delete(agent);
  }

  /** Takes back a tab given by `set` that turned out unusable, unless the agent has moved on since. */
  unset(agent: string, hostId: string): void {
    if (this.current.get(agent) === hostId) this.current.delete(agent);
  }

  heldByOther(agent: string, hostId: string): boolean {
    for (const [other, id] of this.current) if (other !== agent && id === hostId) return true;
    return false;
  }

  /** The tab of the agent that used one last. */
  latest(): string | undefined {
    return [...this.current.values()].at(-1);
  }

  tabs(): string[] {
    return [...new Set(this.current.values())];
  }

  /** Forgets a closed tab for every agent; each one on it other than `by` (who saw it go) is told on its next call. */
  forget(hostId: string, handle: string, by: string | undefined): void {
    for (const [agent, id] of this.current) {
      if (id !== hostId) continue;
      this.current.delete(agent);
      if (agent !== by) this.closed.set(agent, handle);
    }
  }

  /** The handle of the agent's current tab that someone else closed, reported once. */
  takeClosed(agent: string): string | undefined {
    const handle = this.closed.get(agent);
    this.closed.delete(agent);
    return handle;
  }

  saved(): SavedCurrents {
    return { currents: Object.fromEntries(this.current), closed: Object.fromEntries(this.closed) };
  }
}

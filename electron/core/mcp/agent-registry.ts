// Numbers the MCP sessions open on this core ("1", "2", …, never reused): the engine keeps a current tab per session,
// and lets go of the tab of one that ended.
export class AgentRegistry {
  private last = 0;
  private readonly ids = new Set<string>();

  /** A new session's id. */
  open(): string {
    const id = String(++this.last);
    this.ids.add(id);
    return id;
  }

  close(id: string): void {
    this.ids.delete(id);
  }

  /** The sessions open now, oldest first. */
  live(): string[] {
    return [...this.ids];
  }
}

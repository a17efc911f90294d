// The operations every backend executes (the wire list between core and extension), and the executor contract.

export const PAGE_OPERATIONS = [
  'navigate',
  'snapshot',
  'find',
  'frames',
  'get_text',
  'get_html',
  'screenshot',
  'click',
  'hover',
  'drag',
  'type',
  'press',
  'fill_form',
  'select_option',
  'scroll',
  'wait_for',
  'eval',
] as const;

export const TAB_OPERATIONS = ['tabs', 'tab_use', 'tab_new', 'tab_select', 'tab_close', 'resize'] as const;

/**
 * `release_held` carries the person's decision on an act the gate held (see shared/engine/gate): the core sends it,
 * and no MCP tool stands for it, so the agent cannot release its own acts.
 */
export const OPERATIONS = [...TAB_OPERATIONS, ...PAGE_OPERATIONS, 'batch', 'release_held'] as const;

export type PageOperation = (typeof PAGE_OPERATIONS)[number];
export type TabOperation = (typeof TAB_OPERATIONS)[number];
export type Operation = (typeof OPERATIONS)[number];

/** What an operation answers: a terse line or block for the model, optionally an image and structured data. */
export interface OperationResult {
  text: string;
  image?: { data: string; mimeType: 'image/jpeg' | 'image/png' };
  data?: Record<string, unknown>;
}

/**
 * The MCP session a call comes from: each keeps its own current tab. `live` names every session open on the core
 * right now, this one included, so the engine can let go of the tabs of sessions that ended.
 */
export interface AgentContext {
  id: string;
  live: readonly string[];
}

export interface OperationContext {
  /** Reports progress on long work (navigation waits, wait_for, batch); a no-op when the client did not ask. */
  progress(message: string, done?: number, total?: number): void;
  signal?: AbortSignal;
  /** Absent: the one agent there is (a core call such as `release_held`, a single-client test). */
  agent?: AgentContext;
}

/** A backend: runs one operation with already-validated arguments. Throws ToolError. */
export interface Executor {
  run(op: Operation, args: Record<string, unknown>, ctx: OperationContext): Promise<OperationResult>;
}

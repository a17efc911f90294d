// The operations every backend executes (the wire list between core and extension), and the executor contract.

export const PAGE_OPERATIONS = [
  'navigate',
  'snapshot',
  'find',
  'frames',
  'get_text',
  'get_html',
  'read_as_markdown',
  'extract_links',
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
  'console',
  'network',
  'network_get',
  'network_route',
  'network_replay',
  'api_learn',
  'api_call',
  'performance',
  'inspect',
  'sources',
  'upload_file',
  'download',
  'dialog',
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

/**
 * The wire's own operations that name a held act: each goes to the backend (and the link of it) that holds the act,
 * whichever serves calls now (electron/core/backend/held-routes.ts). Said here once, for every router.
 */
const HOLDER_OPERATIONS: ReadonlySet<Operation> = new Set<Operation>(['release_held']);

export function goesToHolder(op: Operation): boolean {
  return HOLDER_OPERATIONS.has(op);
}

/** What an operation answers: a terse line or block for the model, optionally an image and structured data. */
export interface OperationResult {
  text: string;
  image?: { data: string; mimeType: 'image/jpeg' | 'image/png' };
  data?: Record<string, unknown>;
  /** A file the page handed over (`download`): the core saves it and replaces it with where it went (core/files). */
  file?: PageFile;
}

/** A file's bytes between the core and a page, either way: what `download` took, or what `upload_file` puts in. */
export interface PageFile {
  name: string;
  mimeType: string;
  base64: string;
  /** Where it came from (a download's URL, after redirects as far as known); its Content-Disposition, when sent. */
  url?: string;
  disposition?: string;
}

/** The most bytes a downloaded file, or all files of one upload together, may have: they cross the wire as base64. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** The most files one `upload_file` puts in. */
export const MAX_UPLOAD_FILES = 20;

/**
 * The MCP session a call comes from: each keeps its own current tab. `live` names every session open on the core
 * right now, this one included, so the engine can let go of the tabs of sessions that ended.
 */
export interface AgentContext {
  id: string;
  live: readonly string[];
  /** Its session lists the DevTools tools: the engine keeps the network of every tab it uses, from that use on. */
  devtools?: boolean;
}

export interface OperationContext {
  /** Reports progress on long work (navigation waits, wait_for, batch); a no-op when the client did not ask. */
  progress(message: string, done?: number, total?: number): void;
  signal?: AbortSignal;
  /** Absent: the one agent there is (a core call such as `release_held`, a single-client test). */
  agent?: AgentContext;
  /**
   * The files of an `upload_file`, read by the core from the folders the person allowed, for a browser that may not
   * read local files itself (the person's Chrome: measured, see docs/files.md). Absent: the browser reads `paths`.
   */
  uploads?: readonly PageFile[];
}

/** A backend: runs one operation with already-validated arguments. Throws ToolError. */
export interface Executor {
  run(op: Operation, args: Record<string, unknown>, ctx: OperationContext): Promise<OperationResult>;
}

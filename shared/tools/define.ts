// The shape of a catalog entry: the tool declared once, with every trait the layers around its handler act on. MCP
// registration, dispatch, the extension's router, the act window, the core's budgets and the README derive from it.
import type { z } from 'zod';
import type { AccessLevel, PolicyLevel } from '../policy/levels.js';
import type { Operation } from '../protocol/operations.js';
import type { ToolCap } from '../policy/tool-caps.js';

/** Operations the core answers itself, never a backend: they concern the core and the person, not a page. */
export const CORE_OPERATIONS = ['status', 'plan', 'ask', 'downloads'] as const;
export type CoreOperation = (typeof CORE_OPERATIONS)[number];

export function isCoreOperation(op: string): op is CoreOperation {
  return (CORE_OPERATIONS as readonly string[]).includes(op);
}

export type ToolCategory = 'session' | 'tabs' | 'navigation' | 'read' | 'act' | 'scripts' | 'files' | 'devtools';

// Traits that depend on the call are methods: their argument is the call's arguments as the tool's own schema parsed
// them (a method, so an entry still widens to ToolDefinition while its own methods see its own argument type).
type ToolOp = Operation | CoreOperation;

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject, Op extends ToolOp = ToolOp> {
  name: string;
  /** A short human title: MCP clients show it in their tool lists and approval prompts. */
  title: string;
  category: ToolCategory;
  /** The opt-in capability that lists it; absent: the default set. */
  cap?: ToolCap;
  description: string;
  input: Input;
  /** The shape of the structured data its success returns (published as `outputSchema`); absent: text only. */
  output?: z.ZodObject;
  readOnly: boolean;
  destructive: boolean;
  /**
   * The level the page's site must allow (the engine's policy gate), and the level the top document must allow
   * before the call starts unless `mainLevel` says otherwise. `act` also makes it an act (engine/executor.ts runAct):
   * watched for the navigation it causes, and run inside the gate's act window when it `commits`.
   */
  policy: PolicyLevel;
  /** The operation behind it: a page or tab operation the executor runs (engine/operation-table.ts), or a core one. */
  op: Op;
  /** Its input may commit a send as the person, so the gate judges what it sends (engine/gate/act-window.ts). */
  commits?(args: z.infer<Input>): boolean;
  /**
   * Its input activates a control (a click, a key), whose words then count for a write to the control's own site;
   * filling fields activates none (engine/gate/act-window.ts).
   */
  activatesControl?: true;
  /** What the top document must allow before it starts, when not `policy` (`none`: it needs nothing of the page). */
  mainLevel?(args: z.infer<Input>): AccessLevel | 'none';
  /** Its `url` argument is a page it loads: the core judges it before sending the call anywhere (mcp/site-check.ts). */
  loadsUrl?: true;
  /** Its `timeout` argument's default, ms: the engine waits that long, the core that plus a margin (call-budget.ts). */
  defaultTimeoutMs?: number;
  /** How long the core waits for a backend's answer, when longer than the default (bridge/call-budget.ts). */
  budgetMs?: number;
  /** It captures the page's pixels, so the presence indicator is hidden first (engine/presence.ts). */
  captures?: true;
  /**
   * It answers from what the engine keeps of the tab as it happens (its console, its network log), not from the page,
   * so the page is not told of the call (engine/presence.ts): once the capture runs and the frames are listed, a read
   * sends the browser nothing (test/engine/kept-reads.test.ts).
   */
  readsKept?: true;
  /** It runs other tools' calls as its steps (engine/batch.ts): never nested, budgets and URLs are its steps'. */
  runsSteps?: true;
  /**
   * It moves files between the machine and a page: `in`, its `paths` are resolved by the core inside the folders the
   * person allowed before any backend sees them; `out`, the file its result carries is saved by the core
   * (electron/core/files). Never a batch step: steps do not pass through the core.
   */
  files?: 'in' | 'out';
  /**
   * It answers the tab's open JavaScript dialog: the one page tool that runs while a dialog holds the page, outside the
   * act window, since what the answer leads to is the interrupted call's (engine/dialogs.ts).
   */
  answersDialog?: true;
  /** Answered even while the person has stopped the agent: it is how the agent learns it was stopped. */
  whileStopped?: true;
}

/** An entry keeps the exact type of what it declares: `navigate.defaultTimeoutMs` is a number, not maybe one. */
export function defineTool<Input extends z.ZodObject, Op extends ToolOp, Declared extends ToolDefinition<Input, Op>>(
  definition: Declared & ToolDefinition<Input, Op>,
): Declared {
  return definition;
}

/** Whether this call of the tool may commit a send (arguments already parsed by the tool's schema). */
export function commitsOf(tool: ToolDefinition, args: Record<string, unknown>): boolean {
  return tool.commits?.(args) ?? false;
}

/** What the top document must allow before this call of the tool starts. */
export function mainLevelOf(tool: ToolDefinition, args: Record<string, unknown>): AccessLevel | 'none' {
  return tool.mainLevel?.(args) ?? tool.policy;
}

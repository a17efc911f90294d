// How long the core waits for the extension to answer one operation before it gives up with TIMEOUT: the tool's own
// budget traits (shared/tools/define.ts) say it; an operation no tool stands for gets the default.
import { z } from 'zod';
import type { WireOperation } from '../../../shared/protocol/wire.js';
import { toolByName, toolOf } from '../../../shared/tools/catalog.js';
import type { ToolDefinition } from '../../../shared/tools/define.js';

export const DEFAULT_CALL_MS = 30_000;
/** Room on top of an operation's own timeout, so the extension's typed answer (with its detail) arrives first. */
const MARGIN_MS = 15_000;
/** A model-supplied timeout may be anything; timers cannot wait longer than ~24.8 days and nobody should wait 10 min. */
const MAX_CALL_MS = 600_000;

const timeoutArg = z.object({ timeout: z.number().positive().finite() });
const step = z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()).optional() });
const stepsArg = z.object({ steps: z.array(step) });

export function callBudgetMs(op: WireOperation, args: Record<string, unknown>): number {
  const tool = toolOf(op);
  return Math.min(MAX_CALL_MS, tool ? budget(tool, args) : DEFAULT_CALL_MS);
}

function budget(tool: ToolDefinition, args: Record<string, unknown>): number {
  if (tool.budgetMs !== undefined) return tool.budgetMs;
  if (tool.runsSteps) {
    // Steps run back to back inside the extension, so the call may take as long as its steps together.
    const steps = stepsArg.safeParse(args);
    if (!steps.success) return DEFAULT_CALL_MS;
    // A step that itself runs steps is refused by the engine, and an unknown one too: each counts as one default step.
    const total = steps.data.steps.reduce((sum, step) => {
      const inner = toolByName(step.tool);
      return sum + (!inner || inner.runsSteps ? DEFAULT_CALL_MS : budget(inner, step.args ?? {}));
    }, 0);
    // Never below the default: an empty or refused batch still needs its answer to cross the link.
    return Math.max(DEFAULT_CALL_MS, total);
  }
  if (tool.defaultTimeoutMs === undefined) return DEFAULT_CALL_MS;
  const own = timeoutArg.safeParse(args);
  return Math.max(DEFAULT_CALL_MS, (own.success ? own.data.timeout : tool.defaultTimeoutMs) + MARGIN_MS);
}

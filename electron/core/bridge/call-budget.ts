// How long the core waits for the extension to answer one operation before it gives up with TIMEOUT.
import { z } from 'zod';
import type { WireOperation } from '../../../shared/protocol/wire.js';

export const DEFAULT_CALL_MS = 30_000;
/** Room on top of an operation's own timeout, so the extension's typed answer (with its detail) arrives first. */
const MARGIN_MS = 15_000;
const SCREENSHOT_MS = 60_000;
/** A model-supplied timeout may be anything; timers cannot wait longer than ~24.8 days and nobody should wait 10 min. */
const MAX_CALL_MS = 600_000;

// The engine's own defaults for operations whose `timeout` argument bounds their wait.
const OWN_TIMEOUT_DEFAULTS = new Map([['navigate', 30_000], ['wait_for', 10_000]]);

const timeoutArg = z.object({ timeout: z.number().positive().finite() });
const batchArgs = z.object({ steps: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()).optional() })) });

export function callBudgetMs(op: WireOperation, args: Record<string, unknown>): number {
  return Math.min(MAX_CALL_MS, budget(op, args));
}

/** `op` is an operation, or a batch step's tool name (the same names for the operations that wait). */
function budget(op: string, args: Record<string, unknown>): number {
  if (op === 'screenshot') return SCREENSHOT_MS;
  if (op === 'batch') {
    // Steps run back to back inside the extension, so the batch may take as long as its steps together.
    const steps = batchArgs.safeParse(args);
    if (!steps.success) return DEFAULT_CALL_MS;
    // A batch step that is itself a batch is refused by the engine; it counts as one default step, not recursed into.
    const total = steps.data.steps.reduce((sum, step) => sum + (step.tool === 'batch' ? DEFAULT_CALL_MS : budget(step.tool, step.args ?? {})), 0);
    // Never below the default: an empty or refused batch still needs its answer to cross the link.
    return Math.max(DEFAULT_CALL_MS, total);
  }
  const ownDefault = OWN_TIMEOUT_DEFAULTS.get(op);
  if (ownDefault === undefined) return DEFAULT_CALL_MS;
  const own = timeoutArg.safeParse(args);
  return Math.max(DEFAULT_CALL_MS, (own.success ? own.data.timeout : ownDefault) + MARGIN_MS);
}

// batch: every step validated against its tool's schema before any runs, then run in order with no round trip
// between them; the first failure stops the batch and names the step.
import { ToolError, toToolError } from '../protocol/errors.js';
import type { Operation, OperationContext, OperationResult } from '../protocol/operations.js';
import type { BatchArgs } from '../tools/args.js';
import { toolByName } from '../tools/catalog.js';
import { isCoreOperation, type ToolDefinition } from '../tools/define.js';
import { parseToolArgs } from '../tools/validate.js';

export type RunStep = (op: Operation, args: Record<string, unknown>, ctx: OperationContext) => Promise<OperationResult>;

interface Step {
  tool: ToolDefinition;
  op: Operation;
  args: Record<string, unknown>;
}

export async function runBatch(args: BatchArgs, run: RunStep, ctx: OperationContext): Promise<OperationResult> {
  const steps = args.steps.map((step, i) => validate(i + 1, step.tool, step.args ?? {}, args.tab));
  const lines: string[] = [];
  let image: OperationResult['image'];
  for (const [i, step] of steps.entries()) {
    const n = i + 1;
    if (ctx.signal?.aborted)
      throw new ToolError('STOPPED', `batch stopped before step ${n} (${step.tool.name}); ${done(n)}.`);
    ctx.progress(`step ${n}/${steps.length}: ${step.tool.name}`, i, steps.length);
    try {
      const result = await run(step.op, step.args, ctx);
      lines.push(`${n} ${step.tool.name}: ${result.text}`);
      image = result.image ?? image;
      // A dialog holds the page: the steps after it would only be refused, and its answer may change the plan.
      const dialog = result.data?.['dialog'];
      if (dialog !== undefined && n < steps.length) {
        lines.push(n + 1 === steps.length ? `step ${n + 1} did not run` : `steps ${n + 1}-${steps.length} did not run`);
        return { text: lines.join('\n'), ...(image ? { image } : {}), data: { steps: n, dialog } };
      }
    } catch (thrown) {
      const cause = toToolError(thrown);
      // Stopped mid-step (the person's Esc, a cancel): the step did not fail, the batch was stopped.
      if (ctx.signal?.aborted)
        throw new ToolError('STOPPED', `batch stopped during step ${n} (${step.tool.name}); ${done(n)}.`, {
          data: { step: n, results: lines },
        });
      // Held for the person: the card must reach them as from a lone act, so the code and its data stay.
      if (cause.code === 'HELD')
        throw new ToolError('HELD', `step ${n} (${step.tool.name}): ${cause.message} Steps after it did not run.`, {
          next: cause.next,
          data: { ...cause.data, step: n, results: lines },
        });
      throw new ToolError(
        'BATCH_STEP_FAILED',
        `step ${n} (${step.tool.name}): ${cause.code}: ${cause.message}; ${done(n)}.`,
        {
          next: cause.next,
          data: { step: n, code: cause.code, results: lines },
        },
      );
    }
  }
  ctx.progress('batch done', steps.length, steps.length);
  return { text: lines.join('\n'), ...(image ? { image } : {}), data: { steps: steps.length } };
}

function done(n: number): string {
  if (n === 1) return 'no steps done';
  return n === 2 ? 'step 1 done' : `steps 1-${n - 1} done`;
}

function validate(n: number, name: string, raw: Record<string, unknown>, tab: string | undefined): Step {
  const tool = toolByName(name);
  if (!tool) throw new ToolError('BAD_ARGS', `step ${n}: no tool "${name}". No step ran.`);
  // A file tool's paths and files are the core's to check and save, and a batch's steps never pass through it.
  if (tool.runsSteps || isCoreOperation(tool.op) || tool.files !== undefined)
    throw new ToolError('BAD_ARGS', `step ${n}: ${name} cannot run inside a batch. No step ran.`);
  // The batch's tab applies to every step that takes a tab and does not name its own.
  const withTab = tab !== undefined && 'tab' in tool.input.shape && raw['tab'] === undefined ? { ...raw, tab } : raw;
  try {
    return { tool, op: tool.op, args: parseToolArgs(tool, withTab) };
  } catch (thrown) {
    // Reads as the same bad argument would as a tool call, with the step in front of the tool name.
    const cause = toToolError(thrown);
    const issues = cause.message.startsWith(`${tool.name}: `)
      ? cause.message.slice(tool.name.length + 2)
      : cause.message;
    throw new ToolError('BAD_ARGS', `step ${n} (${name}): ${issues}. No step ran.`, { next: cause.next });
  }
}

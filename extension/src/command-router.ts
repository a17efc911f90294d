// Runs the core's commands on the engine: every command id is answered exactly once (a result or a typed error),
// progress flows while it runs, cancel and the command's deadline abort it, nothing thrown escapes, and every answer
// leaves redacted (the core redacts again: a secret must get past both ends to reach the model).
import { ToolError, toToolError } from '../../shared/protocol/errors.js';
import type { Executor, Operation, OperationResult } from '../../shared/protocol/operations.js';
import type { CoreFrame, ExtensionFrame } from '../../shared/protocol/wire.js';
import { redactText } from '../../shared/redact/text.js';
import { redactValue } from '../../shared/redact/value.js';
import { CATALOG } from '../../shared/tools/catalog.js';
import type { ToolDefinition } from '../../shared/tools/define.js';
import { parseToolArgs } from '../../shared/tools/validate.js';

type CommandFrame = Extract<CoreFrame, { type: 'command' }>;

const TOOL_BY_OP = new Map(CATALOG.filter((tool) => tool.op !== 'status').map((tool) => [tool.op as Operation, tool]));
const MAX_PROGRESS_CHARS = 1000;

export class CommandRouter {
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly executor: Executor,
    private readonly send: (frame: ExtensionFrame) => void,
  ) {}

  command(frame: CommandFrame): void {
    // A repeated id while the first is running would be answered twice: the first one answers.
    if (this.running.has(frame.id)) return;
    const controller = new AbortController();
    this.running.set(frame.id, controller);
    // Past its deadline the core has given up on the call; stop the work rather than finish it for nobody.
    const deadline = setTimeout(() => controller.abort(), frame.timeoutMs);
    void this.answer(frame, controller.signal).then((reply) => {
      clearTimeout(deadline);
      this.running.delete(frame.id);
      this.send(reply);
    });
  }

  cancel(id: string): void {
    this.running.get(id)?.abort();
  }

  /** The link closed (nobody is waiting for these answers any more), or the person stopped the agent (`reason`). */
  abortAll(reason?: unknown): void {
    for (const controller of this.running.values()) controller.abort(reason);
  }

  private async answer(frame: CommandFrame, signal: AbortSignal): Promise<ExtensionFrame> {
    try {
      const result = await this.run(frame, signal);
      return { type: 'result', id: frame.id, ok: true, result: redactResult(result) };
    } catch (thrown) {
      const error = toToolError(thrown);
      const data = error.data ? { data: redactValue(error.data) } : {};
      return { type: 'result', id: frame.id, ok: false, error: { code: error.code, message: redactText(error.message), next: redactText(error.next), ...data } };
    }
  }

  private async run(frame: CommandFrame, signal: AbortSignal): Promise<OperationResult> {
    // The core's liveness probe: answered without touching the browser, so it measures the link and the worker only.
    if (frame.op === 'ping') return { text: 'pong' };
    // The core validated these already; parsing again keeps anything malformed from reaching the engine. A held act's
    // release is no tool: the engine parses its arguments itself.
    const args = frame.op === 'release_held' ? frame.args : parseToolArgs(toolFor(frame.op), frame.args);
    return this.executor.run(frame.op, args, {
      signal,
      // Each MCP session on the core keeps its own current tab here.
      agent: frame.agent,
      progress: (message, done, total) => {
        const progress: ExtensionFrame = { type: 'progress', id: frame.id, message: redactText(message).slice(0, MAX_PROGRESS_CHARS) };
        if (done !== undefined) progress.done = done;
        if (total !== undefined) progress.total = total;
        this.send(progress);
      },
    });
  }
}

/** Text and data redacted; a screenshot is pixels, not text, and passes as it is. */
function redactResult(result: OperationResult): OperationResult {
  const redacted: OperationResult = { ...result, text: redactText(result.text) };
  if (result.data) redacted.data = redactValue(result.data);
  return redacted;
}

function toolFor(op: Operation): ToolDefinition {
  const tool = TOOL_BY_OP.get(op);
  if (!tool) throw new ToolError('BAD_ARGS', `${op} is not an operation the extension runs.`);
  return tool;
}

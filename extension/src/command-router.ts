// Runs the core's commands on the engine: every command id is answered exactly once (a result or a typed error),
// progress flows while it runs, cancel and the command's deadline abort it, and nothing thrown escapes.
import { ToolError, toToolError } from '../../shared/protocol/errors.js';
import type { Executor, OperationContext, OperationResult } from '../../shared/protocol/operations.js';
import type { CoreFrame, ExtensionFrame, WireOperation } from '../../shared/protocol/wire.js';
import { redactText } from '../../shared/redact/text.js';
import { redactValue } from '../../shared/redact/value.js';
import { toolOf, type ToolOperation } from '../../shared/tools/catalog.js';
import { parseToolArgs } from '../../shared/tools/validate.js';

type CommandFrame = Extract<CoreFrame, { type: 'command' }>;
type Answer = Extract<ExtensionFrame, { type: 'result' | 'progress' }>;

const MAX_PROGRESS_CHARS = 1000;

type UntooledRun = (executor: Executor, frame: CommandFrame, ctx: OperationContext) => Promise<OperationResult>;

/** Wire operations no tool stands for, so no tool's schema parses them. */
const UNTOOLED = {
  // The core's liveness probe: answered without touching the browser, so it measures the link and the worker only.
  ping: async () => ({ text: 'pong' }),
  // The person's decision on a held act: the engine parses its arguments itself (gate/release-held.ts).
  release_held: (executor, frame, ctx) => executor.run('release_held', frame.args, ctx),
} satisfies Record<Exclude<WireOperation, ToolOperation>, UntooledRun>;

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
      this.reply(reply);
    });
  }

  cancel(id: string): void {
    this.running.get(id)?.abort();
  }

  /** The link closed (nobody is waiting for these answers any more), or the person stopped the agent (`reason`). */
  abortAll(reason?: unknown): void {
    for (const controller of this.running.values()) controller.abort(reason);
  }

  /**
   * The boundary out of the extension: every answer and progress line leaves through here, redacted (the core redacts
   * again before the model: a secret must get past both ends to reach it). A screenshot is pixels and passes as it is.
   */
  private reply(frame: Answer): void {
    if (frame.type === 'progress') {
      return this.send({ ...frame, message: redactText(frame.message).slice(0, MAX_PROGRESS_CHARS) });
    }
    if (!frame.ok) {
      const { data, next, ...error } = frame.error;
      const extra = { ...(next === undefined ? {} : { next: redactText(next) }), ...redactedData(data) };
      return this.send({ ...frame, error: { ...error, message: redactText(error.message), ...extra } });
    }
    const { data, ...result } = frame.result;
    this.send({ ...frame, result: { ...result, text: redactText(result.text), ...redactedData(data) } });
  }

  private async answer(frame: CommandFrame, signal: AbortSignal): Promise<Answer> {
    try {
      return { type: 'result', id: frame.id, ok: true, result: await this.run(frame, signal) };
    } catch (thrown) {
      const { code, message, next, data } = toToolError(thrown);
      return { type: 'result', id: frame.id, ok: false, error: { code, message, next, ...(data ? { data } : {}) } };
    }
  }

  private run(frame: CommandFrame, signal: AbortSignal): Promise<OperationResult> {
    const ctx: OperationContext = {
      signal,
      // Each MCP session on the core keeps its own current tab here.
      agent: frame.agent,
      ...(frame.uploads ? { uploads: frame.uploads } : {}),
      progress: (message, done, total) => {
        const progress: Answer = { type: 'progress', id: frame.id, message };
        if (done !== undefined) progress.done = done;
        if (total !== undefined) progress.total = total;
        this.reply(progress);
      },
    };
    if (isUntooled(frame.op)) return UNTOOLED[frame.op](this.executor, frame, ctx);
    const tool = toolOf(frame.op);
    if (!tool) throw new ToolError('BAD_ARGS', `${frame.op} is not an operation the extension runs.`);
    // The trust boundary into the extension: the core validated these already, but a command is parsed here again
    // against its tool's schema, so nothing malformed reaches the engine whoever sent it.
    return this.executor.run(frame.op, parseToolArgs(tool, frame.args), ctx);
  }
}

function redactedData(data: Record<string, unknown> | undefined): { data?: Record<string, unknown> } {
  return data ? { data: redactValue(data) } : {};
}

function isUntooled(op: WireOperation): op is keyof typeof UNTOOLED {
  return Object.hasOwn(UNTOOLED, op);
}

// The one wrapper every tool call goes through: validate strictly, run, turn every outcome into a tool result, redact it.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toToolError } from '../../../shared/protocol/errors.js';
import type { Executor, OperationContext } from '../../../shared/protocol/operations.js';
import { redactText } from '../../../shared/redact/text.js';
import type { ToolDefinition } from '../../../shared/tools/define.js';
import { parseToolArgs } from '../../../shared/tools/validate.js';
import type { Log } from '../log.js';
import { redactCallResult, toCallResult, toErrorResult } from './call-result.js';
import { type CallExtra, progressReporter } from './progress.js';
import { type StatusReport, statusResult } from './status.js';

export interface DispatchDeps {
  executor: Executor;
  /** The core answers `status` itself: it knows every backend, the executor only its own. */
  status(): StatusReport | Promise<StatusReport>;
  log: Log;
}

export type Dispatch = (tool: ToolDefinition, args: Record<string, unknown>, extra: CallExtra) => Promise<CallToolResult>;

export function createDispatch(deps: DispatchDeps): Dispatch {
  const run = async (tool: ToolDefinition, rawArgs: Record<string, unknown>, extra: CallExtra): Promise<CallToolResult> => {
    try {
      const args = parseToolArgs(tool, rawArgs);
      if (tool.op === 'status') return toCallResult(statusResult(await deps.status()));
      // Progress lines name URLs too (`navigating to …`), and the client may show them to the model.
      const report = progressReporter(extra);
      const progress: OperationContext['progress'] = (message, done, total) => report(redactText(message), done, total);
      return toCallResult(await deps.executor.run(tool.op, args, { progress, signal: extra.signal }));
    } catch (thrown) {
      const error = toToolError(thrown);
      // An INTERNAL error is our bug: keep its stack for the person reading the logs, never for the model.
      if (error.code === 'INTERNAL') deps.log(`${tool.name} failed: ${thrown instanceof Error ? thrown.stack : String(thrown)}`);
      return toErrorResult(error);
    }
  };
  // Whatever the backend is, nothing reaches the model unredacted: results, errors (a page's URL in a message) alike.
  return async (tool, rawArgs, extra) => redactCallResult(await run(tool, rawArgs, extra));
}

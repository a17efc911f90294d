// The one wrapper every tool call goes through: validate strictly, run, and turn every outcome into a tool result.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toToolError } from '../../../shared/protocol/errors.js';
import type { Executor } from '../../../shared/protocol/operations.js';
import type { ToolDefinition } from '../../../shared/tools/define.js';
import { parseToolArgs } from '../../../shared/tools/validate.js';
import type { Log } from '../log.js';
import { toCallResult, toErrorResult } from './call-result.js';
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
  return async (tool, rawArgs, extra) => {
    try {
      const args = parseToolArgs(tool, rawArgs);
      if (tool.op === 'status') return toCallResult(statusResult(await deps.status()));
      return toCallResult(await deps.executor.run(tool.op, args, { progress: progressReporter(extra), signal: extra.signal }));
    } catch (thrown) {
      const error = toToolError(thrown);
      // An INTERNAL error is our bug: keep its stack for the person reading the logs, never for the model.
      if (error.code === 'INTERNAL') deps.log(`${tool.name} failed: ${thrown instanceof Error ? thrown.stack : String(thrown)}`);
      return toErrorResult(error);
    }
  };
}

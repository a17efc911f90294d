// The extension backend: runs each operation over whichever extension link is active at the time of the call.
import { ToolError } from '../../../shared/protocol/errors.js';
import type { Executor, Operation, OperationContext, OperationResult } from '../../../shared/protocol/operations.js';
import type { ExtensionBackend } from '../backend/backend-manager.js';
import type { BridgeServer } from './bridge-server.js';

type LinkSource = Pick<BridgeServer, 'link'>;

export class ExtensionExecutor implements Executor {
  constructor(private readonly bridge: LinkSource) {}

  async run(op: Operation, args: Record<string, unknown>, ctx: OperationContext): Promise<OperationResult> {
    const link = this.bridge.link();
    if (!link) throw new ToolError('EXTENSION_DISCONNECTED', 'No extension is connected.');
    return link.call(op, args, { signal: ctx.signal, progress: (message, done, total) => ctx.progress(message, done, total), agent: ctx.agent });
  }
}

// A worker that answered this recently is alive: a ping before every call would double the cost of a fast call.
const RECENTLY_HEARD_MS = 1_000;

/** The extension side as the backend manager sees it: is a link up, does it answer a ping in time, and the executor. */
export function extensionBackend(bridge: LinkSource): ExtensionBackend {
  return {
    executor: new ExtensionExecutor(bridge),
    connected: () => bridge.link() !== undefined,
    alive: async (deadlineMs) => {
      const link = bridge.link();
      if (!link) return false;
      return link.silentForMs() < RECENTLY_HEARD_MS || link.ping(deadlineMs);
    },
  };
}

// The extension backend: runs each operation over whichever extension link is active at the time of the call, and a
// held act's decision over the link (the worker's engine session) that held it, which is the only one that knows it.
import { ToolError } from '../../../shared/protocol/errors.js';
import {
  type Executor,
  goesToHolder,
  type Operation,
  type OperationContext,
  type OperationResult,
} from '../../../shared/protocol/operations.js';
import { toolOf } from '../../../shared/tools/catalog.js';
import type { ExtensionBackend } from '../backend/backend-manager.js';
import { readUploads } from '../files/upload-bytes.js';
import { heldGoneError, heldIdOf, HeldRoutes } from '../backend/held-routes.js';
import type { BridgeServer } from './bridge-server.js';
import type { ExtensionLink } from './extension-link.js';

type LinkSource = Pick<BridgeServer, 'link'>;

/** `onHeldGone`: a link that held acts closed, so those acts are gone unsent (the person's cards say so at once). */
export class ExtensionExecutor implements Executor {
  private readonly holders = new HeldRoutes<ExtensionLink>();

  constructor(
    private readonly bridge: LinkSource,
    private readonly onHeldGone?: (id: string, why: string) => void,
  ) {}

  async run(op: Operation, args: Record<string, unknown>, ctx: OperationContext): Promise<OperationResult> {
    const link = goesToHolder(op) ? this.holder(heldIdOf(args)) : this.bridge.link();
    if (!link) throw new ToolError('EXTENSION_DISCONNECTED', 'No extension is connected.');
    try {
      return await link.call(op, args, {
        signal: ctx.signal,
        progress: (message, done, total) => ctx.progress(message, done, total),
        agent: ctx.agent,
        // Chrome lets an extension's debugger set files by path only where the person allowed it file access
        // (measured: docs/files.md), so the bytes go along; the paths were checked in the core (files-executor.ts).
        ...(toolOf(op)?.files === 'in' ? { uploads: await readUploads(args['paths'] as string[]) } : {}),
      });
    } catch (error) {
      const id = this.holders.note(error, link);
      if (id !== undefined) link.onClose((why) => this.onHeldGone?.(id, goneWhy(why)));
      throw error;
    }
  }

  /** The link that held `id`, while it is still the one connected: a new link is a new engine session, without it. */
  private holder(id: string): ExtensionLink {
    const link = this.holders.take(id);
    if (!link) throw heldGoneError(id, "the person's Chrome does not hold it");
    if (!link.open || this.bridge.link() !== link) {
      throw heldGoneError(id, goneWhy(link.open ? 'replaced by a new link' : 'closed'));
    }
    return link;
  }
}

function goneWhy(why: string): string {
  const causes = 'the extension reconnected, reloaded or its worker restarted';
  return `the link to the person's Chrome that held it ended (${why}: ${causes})`;
}

// A worker that answered this recently is alive: a ping before every call would double the cost of a fast call.
const RECENTLY_HEARD_MS = 1_000;

/** The extension side as the backend manager sees it: is a link up, does it answer a ping in time, and the executor. */
export function extensionBackend(bridge: LinkSource, onHeldGone?: (id: string, why: string) => void): ExtensionBackend {
  return {
    executor: new ExtensionExecutor(bridge, onHeldGone),
    connected: () => bridge.link() !== undefined,
    alive: async (deadlineMs) => {
      const link = bridge.link();
      if (!link) return false;
      return link.silentForMs() < RECENTLY_HEARD_MS || link.ping(deadlineMs);
    },
  };
}

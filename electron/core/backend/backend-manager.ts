// Chooses the backend per call (seed 000's ExecutorManager): the person's Chrome through the extension when it is
// connected and answers, else the fallback browser when allowed, else NO_BACKEND with the fix. A held act's decision
// goes to the backend that held it, whichever serves now.
import { ToolError } from '../../../shared/protocol/errors.js';
import {
  type Executor,
  goesToHolder,
  type Operation,
  type OperationContext,
  type OperationResult,
} from '../../../shared/protocol/operations.js';
import { heldGoneError, heldIdOf, HeldRoutes } from './held-routes.js';

export type BrowserChoice = 'auto' | 'extension' | 'fallback';
export type BackendName = 'extension' | 'fallback' | 'none';

/** What the manager needs of the extension side: is a link up, does it answer, and an executor over it. */
export interface ExtensionBackend {
  executor: Executor;
  connected(): boolean;
  /** True when the extension answers within `deadlineMs` (a dead-but-not-yet-closed worker does not). */
  alive(deadlineMs: number): Promise<boolean>;
}

export interface Selection {
  backend: BackendName;
  why: string;
}

// A worker that does not answer in this long is treated as gone for this call (seed 000: 800 ms).
export const PING_DEADLINE_MS = 800;

export class BackendManager implements Executor {
  private last: Selection | undefined;
  private readonly holders = new HeldRoutes<Executor>();

  constructor(
    private readonly choice: BrowserChoice,
    private readonly extension: ExtensionBackend,
    private readonly fallback: Executor,
  ) {}

  /** Which backend served the last call, and why; undefined before the first. */
  lastSelection(): Selection | undefined {
    return this.last;
  }

  async run(op: Operation, args: Record<string, unknown>, ctx: OperationContext): Promise<OperationResult> {
    if (goesToHolder(op)) return this.release(op, args, ctx);
    const { executor, selection } = await this.select();
    this.last = selection;
    try {
      return await executor.run(op, args, ctx);
    } catch (error) {
      this.holders.note(error, executor);
      throw error;
    }
  }

  /** The person's decision, to the backend that held the act (the extension may have connected since, or gone). */
  private release(op: Operation, args: Record<string, unknown>, ctx: OperationContext): Promise<OperationResult> {
    const id = heldIdOf(args);
    const holder = this.holders.take(id);
    if (!holder)
      throw heldGoneError(id, 'no browser of this server holds it (decided already, or held before a restart)');
    return holder.run(op, args, ctx);
  }

  private async select(): Promise<{ executor: Executor; selection: Selection }> {
    if (this.choice !== 'fallback') {
      const state = await this.extensionState();
      if (state === 'ready')
        return {
          executor: this.extension.executor,
          selection: { backend: 'extension', why: 'extension connected and answering' },
        };
      if (this.choice === 'extension') {
        throw new ToolError('NO_BACKEND', `The extension is ${state} and --browser extension allows nothing else.`, {
          next: 'Open Chrome with the Chrome MCP extension and pair it (chrome-mcp doctor says what is missing), then retry.',
        });
      }
      return { executor: this.fallback, selection: { backend: 'fallback', why: `extension ${state}` } };
    }
    return { executor: this.fallback, selection: { backend: 'fallback', why: '--browser fallback' } };
  }

  private async extensionState(): Promise<'ready' | 'not connected' | 'not answering'> {
    if (!this.extension.connected()) return 'not connected';
    return (await this.extension.alive(PING_DEADLINE_MS)) ? 'ready' : 'not answering';
  }
}

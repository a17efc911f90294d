// The calls waiting on the extension, by frame id. Each settles exactly once: by its answer, its deadline, its
// caller's abort, or the link going away; whatever comes later for that id finds nothing and is dropped.
import { ToolError } from '../../../shared/protocol/errors.js';
import type { OperationResult } from '../../../shared/protocol/operations.js';

export type ProgressSink = (message: string, done?: number, total?: number) => void;

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  progress?: ProgressSink;
}

interface Entry {
  op: string;
  succeed(result: OperationResult): void;
  fail(error: ToolError): void;
  progress?: ProgressSink;
}

export class PendingCalls {
  private readonly entries = new Map<string, Entry>();

  /** Waits for the answer to `id`; `abandon` runs when the core stops waiting (deadline or abort) so the extension can stop too. */
  wait(id: string, op: string, options: WaitOptions, abandon: (id: string) => void): Promise<OperationResult> {
    const { timeoutMs, signal, progress } = options;
    return new Promise<OperationResult>((resolve, reject) => {
      const onAbort = () => {
        if (this.fail(id, new ToolError('STOPPED', `${op} was stopped before the extension answered.`))) abandon(id);
      };
      const timer = setTimeout(() => {
        if (this.fail(id, new ToolError('TIMEOUT', `The extension did not answer ${op} within ${timeoutMs} ms.`)))
          abandon(id);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.entries.delete(id);
      };
      const entry: Entry = {
        op,
        succeed: (result) => {
          done();
          resolve(result);
        },
        fail: (error) => {
          done();
          reject(error);
        },
      };
      if (progress) entry.progress = progress;
      this.entries.set(id, entry);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** False when nobody waits for `id` any more (answered, timed out, stopped) or never did. */
  succeed(id: string, result: OperationResult): boolean {
    const entry = this.entries.get(id);
    entry?.succeed(result);
    return entry !== undefined;
  }

  fail(id: string, error: ToolError): boolean {
    const entry = this.entries.get(id);
    entry?.fail(error);
    return entry !== undefined;
  }

  progress(id: string, message: string, done?: number, total?: number): boolean {
    const entry = this.entries.get(id);
    entry?.progress?.(message, done, total);
    return entry !== undefined;
  }

  /** Fails every waiting call, each with its own error naming its operation. */
  failAll(error: (op: string) => ToolError): void {
    for (const entry of [...this.entries.values()]) entry.fail(error(entry.op));
  }
}

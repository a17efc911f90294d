// The CDP commands a transport has sent and not yet heard back about: each settles once, and the ones Chrome will
// never answer (their session detached, the connection ended) are failed instead of left hanging.
import { CdpCommandError } from './cdp.js';

interface Entry {
  method: string;
  sessionId: string | undefined;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export class PendingCommands {
  private nextId = 1;
  private readonly entries = new Map<number, Entry>();

  /**
   * A command about to go out, as a promise settled by `resolve` or `reject` with the id `start` is handed (a socket
   * puts it in the message; a promise-returning API keeps it for its callbacks). A throw from `start` fails the command.
   */
  track<R>(method: string, sessionId: string | undefined, start: (id: number) => void): Promise<R> {
    const id = this.nextId++;
    const promise = new Promise<R>((resolve, reject) => {
      this.entries.set(id, { method, sessionId, resolve: resolve as (value: unknown) => void, reject });
    });
    try {
      start(id);
    } catch (error) {
      this.reject(id, () => (error instanceof Error ? error : new Error(String(error))));
    }
    return promise;
  }

  /** The command's answer; one already failed (its session detached, the transport ended) ignores a late answer. */
  resolve(id: number, value: unknown): void {
    const entry = this.take(id);
    entry?.resolve(value);
  }

  /** The command's failure, worded from its method. */
  reject(id: number, error: (method: string) => Error): void {
    const entry = this.take(id);
    entry?.reject(error(entry.method));
  }

  /** Chrome never answers commands in flight on a child session that detaches (an iframe, a tab closing): fail them. */
  failSession(sessionId: string): void {
    for (const [id, entry] of this.entries) {
      if (entry.sessionId === sessionId)
        this.reject(id, (method) => new CdpCommandError(method, 'Session with given id not found (it detached)'));
    }
  }

  /** The transport ended: every command in flight fails now, with the error the transport words for its method. */
  failAll(error: (method: string) => Error): void {
    for (const id of [...this.entries.keys()]) this.reject(id, error);
  }

  private take(id: number): Entry | undefined {
    const entry = this.entries.get(id);
    this.entries.delete(id);
    return entry;
  }
}

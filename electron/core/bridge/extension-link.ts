// One authenticated extension connection: sends the policy and commands, matches answers by id, relays progress,
// keeps the heartbeat, and fails every waiting call exactly once when it goes away.
import type { RawData, WebSocket } from 'ws';
import type { Policy } from '../../../shared/policy/policy.js';
import { policyToTransfer } from '../../../shared/policy/transfer.js';
import { ToolError } from '../../../shared/protocol/errors.js';
import type { AgentContext, OperationResult, PageFile } from '../../../shared/protocol/operations.js';
import {
  agentOnWire,
  CLOSE_CODES,
  decodeFrame,
  extensionFrame,
  WIRE_VERSION,
  type WireOperation,
} from '../../../shared/protocol/wire.js';
import type { Log } from '../log.js';
import { callBudgetMs } from './call-budget.js';
import { frameText, sendFrame, type UnauthorizedReason } from './frame-io.js';
import { Heartbeat } from './heartbeat.js';
import { MAX_BUFFERED_OUT_BYTES } from './limits.js';
import { PendingCalls, type ProgressSink } from './pending-calls.js';

export interface LinkIdentity {
  /** Sent in `welcome`; the extension stamps it into tab handles, so a handle from another connection reads STALE_TAB. */
  session: string;
  extensionId: string;
  version: string;
  chrome: string;
}

export interface CallOptions {
  /** Default: the operation's budget (call-budget.ts). */
  timeoutMs?: number;
  signal?: AbortSignal;
  progress?: ProgressSink;
  /** The MCP session the call comes from; absent, the extension's one default agent. */
  agent?: AgentContext;
  /** An upload's files, sent along since the person's Chrome may not read them from disk. */
  uploads?: readonly PageFile[];
}

export class ExtensionLink {
  private readonly pending = new PendingCalls();
  private readonly heartbeat: Heartbeat;
  private readonly closeListeners: Array<(why: string) => void> = [];
  private lastId = 0;
  private dropped = 0;
  private heardAt = 0;
  private closedWhy: string | undefined;
  /** When the extension was admitted (ms since the epoch): the panel shows since when it is linked. */
  readonly connectedAt = Date.now();

  constructor(
    private readonly socket: WebSocket,
    readonly identity: LinkIdentity,
    private readonly options: {
      heartbeatMs: number;
      log: Log;
      policy: () => Policy;
      personStop: (message: string) => void;
    },
  ) {
    socket.on('message', (data, isBinary) => this.receive(data, isBinary));
    socket.on('close', (code) => this.gone(`socket closed (${code})`));
    this.heartbeat = new Heartbeat(
      options.heartbeatMs,
      () => this.send({ type: 'ping', ts: Date.now() }),
      () => this.close(CLOSE_CODES.heartbeat, 'two heartbeats unanswered'),
    );
    this.send({ type: 'welcome', v: WIRE_VERSION, session: identity.session, heartbeatMs: options.heartbeatMs });
    // Before the link is handed to anyone who could call it, so no command reaches the extension ahead of the policy.
    this.sendPolicy();
  }

  get open(): boolean {
    return this.closedWhy === undefined;
  }

  /** Milliseconds since the extension last sent a well-formed frame (answer, progress or pong). */
  silentForMs(): number {
    return Date.now() - this.heardAt;
  }

  /** Runs once, when the link goes away for any reason (after its waiting calls have failed). */
  onClose(listener: (why: string) => void): void {
    this.closeListeners.push(listener);
  }

  async call(op: WireOperation, args: Record<string, unknown>, options: CallOptions = {}): Promise<OperationResult> {
    if (this.closedWhy !== undefined) throw disconnected(op, this.closedWhy);
    if (options.signal?.aborted) throw new ToolError('STOPPED', `${op} was stopped before it was sent.`);
    const queued = this.socket.bufferedAmount;
    if (queued > MAX_BUFFERED_OUT_BYTES) {
      throw new ToolError(
        'BACKPRESSURE',
        `${(queued / 2 ** 20).toFixed(1)} MiB are still queued to the extension; ${op} was not sent.`,
      );
    }
    const id = String(++this.lastId);
    const timeoutMs = options.timeoutMs ?? callBudgetMs(op, args);
    // Sent before waiting is registered: no answer can be handled in between (one thread), and a frame that fails to
    // serialise then leaves nothing behind to time out.
    this.send({
      type: 'command',
      id,
      op,
      args,
      timeoutMs,
      ...(options.agent ? { agent: agentOnWire(options.agent) } : {}),
      ...(options.uploads ? { uploads: [...options.uploads] } : {}),
    });
    return this.pending.wait(id, op, { ...options, timeoutMs }, (abandoned) =>
      this.send({ type: 'cancel', id: abandoned }),
    );
  }

  /** Sends the policy as it stands now; the extension replaces its copy whole and checks the next step against it. */
  sendPolicy(): void {
    if (this.closedWhy === undefined) this.send({ type: 'policy', policy: policyToTransfer(this.options.policy()) });
  }

  /** True when the extension answers a `ping` command within the deadline: its worker is alive and routing. */
  async ping(deadlineMs: number): Promise<boolean> {
    try {
      await this.call('ping', {}, { timeoutMs: deadlineMs });
      return true;
    } catch {
      return false;
    }
  }

  /** Ends the link from this side; `reason`, when given, is first sent as an `unauthorized` frame the extension reads. */
  close(code: number, why: string, reason?: UnauthorizedReason): void {
    if (this.closedWhy !== undefined) return;
    if (reason) this.send({ type: 'unauthorized', reason });
    this.socket.close(code, why.slice(0, 100));
    this.gone(why);
  }

  private send(frame: Parameters<typeof sendFrame>[1]): void {
    sendFrame(this.socket, frame);
  }

  private receive(data: RawData, isBinary: boolean): void {
    // This runs inside ws's socket handler: anything thrown here would take the whole core down.
    try {
      const text = frameText(data, isBinary);
      const frame = text === undefined ? undefined : decodeFrame(extensionFrame, text);
      if (!frame) return this.drop('malformed');
      this.heardAt = Date.now();
      // An answer or progress for an id nobody waits for any more (timed out, stopped) is normal and ignored.
      if (frame.type === 'result' && frame.ok) this.pending.succeed(frame.id, frame.result);
      else if (frame.type === 'result') {
        const { code, message, next, data } = frame.error;
        this.pending.fail(
          frame.id,
          new ToolError(code, message, {
            ...(next === undefined ? {} : { next }),
            ...(data === undefined ? {} : { data }),
          }),
        );
      } else if (frame.type === 'progress') this.pending.progress(frame.id, frame.message, frame.done, frame.total);
      else if (frame.type === 'pong') this.heartbeat.pong();
      else if (frame.type === 'stop') this.options.personStop(frame.message);
      else this.drop(`a ${frame.type} frame after authentication`);
    } catch (error) {
      this.options.log(
        `bridge: failed handling a frame from the extension: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** Logged at the 1st, 10th, 100th… so a flood of junk cannot flood the log. */
  private drop(what: string): void {
    this.dropped++;
    if (/^10*$/.test(String(this.dropped))) {
      this.options.log(
        `bridge: dropped ${this.dropped} unreadable or unexpected frame(s) from the extension (latest: ${what})`,
      );
    }
  }

  private gone(why: string): void {
    if (this.closedWhy !== undefined) return;
    this.closedWhy = why;
    this.heartbeat.stop();
    this.pending.failAll((op) => disconnected(op, why));
    for (const listener of this.closeListeners) listener(why);
  }
}

function disconnected(op: string, why: string): ToolError {
  return new ToolError('EXTENSION_DISCONNECTED', `The extension link closed before ${op} was answered (${why}).`);
}

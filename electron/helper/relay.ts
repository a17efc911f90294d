// What an MCP client spawns when a long-lived core serves several clients: finds the core through core.json (starting
// one when none answers), authenticates, then relays stdio and the core socket byte for byte, never parsing MCP.
import { connect, type Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { readCoreFile } from '../core/host/core-file.js';
import { greetCore } from '../core/host/handshake.js';
import type { Log } from '../core/log.js';
import type { ToolCap } from '../../shared/policy/tool-caps.js';

export interface RelayOptions {
  dataDir: string;
  /** Starts a core in the background (the app, or `chrome-mcp serve`); called at most once, when none answers. */
  startCore: () => void;
  /** The MCP client's side: its requests in, and the channel that carries nothing but the core's bytes out. */
  input: Readable;
  output: Writable;
  log: Log;
  /** How long to wait for a core, a started one included, before giving up. */
  waitMs?: number;
  /** The opt-in tools this client's session lists (its `--caps`), besides the core's own. */
  caps?: readonly ToolCap[];
}

const RETRY_MS = 100;
// After the client's EOF the core closes its side at once; this only bounds a core that hangs.
const END_GRACE_MS = 2_000;

/** The exit code: 0 when the client ended the session, 1 when no core answered or the core went away. */
export async function runRelay({
  dataDir,
  startCore,
  input,
  output,
  log,
  waitMs = 15_000,
  caps = [],
}: RelayOptions): Promise<number> {
  const socket = await reachCore(dataDir, startCore, log, waitMs, caps);
  if (typeof socket === 'string') {
    log(`no chrome-mcp core answered for ${dataDir} within ${waitMs / 1000} s (${socket})`);
    return 1;
  }
  return relay(socket, input, output, log);
}

type Dialled = Socket | { absent: boolean; why: string };

/** The authenticated socket, or why the last try failed. */
async function reachCore(
  dataDir: string,
  startCore: () => void,
  log: Log,
  waitMs: number,
  caps: readonly ToolCap[],
): Promise<Socket | string> {
  const deadline = performance.now() + waitMs;
  let started = false;
  for (;;) {
    const dialled = await dial(dataDir, caps);
    if (!('why' in dialled)) return dialled;
    if (dialled.absent && !started) {
      started = true;
      log(`no core is running for ${dataDir}: starting one`);
      startCore();
    }
    if (performance.now() + RETRY_MS > deadline) return dialled.why;
    await sleep(RETRY_MS);
  }
}

/** One try. `absent`: nothing serves this data dir, so a core should be started; otherwise one is there but refused us. */
async function dial(dataDir: string, caps: readonly ToolCap[]): Promise<Dialled> {
  const file = readCoreFile(dataDir);
  if (!file) return { absent: true, why: 'no running core has written core.json' };
  const socket = connect(file.socket);
  let failure: NodeJS.ErrnoException | undefined;
  // Kept for the whole session: an error afterwards is followed by `close`, which the relay reports.
  socket.on('error', (error: NodeJS.ErrnoException) => (failure ??= error));
  const connected = await new Promise<boolean>((resolve) => {
    socket.once('connect', () => resolve(true));
    socket.once('close', () => resolve(false));
  });
  if (!connected) {
    const code = failure?.code;
    return {
      absent: code === 'ENOENT' || code === 'ECONNREFUSED',
      why: `${file.socket}: ${failure?.message ?? 'closed'}`,
    };
  }
  try {
    await greetCore(socket, file.token, caps);
    return socket;
  } catch (error) {
    socket.destroy();
    // A core started after core.json was read has a new token: the next try reads the new file.
    return { absent: false, why: `${file.socket}: ${(error as Error).message}` };
  }
}

function relay(socket: Socket, input: Readable, output: Writable, log: Log): Promise<number> {
  return new Promise((resolve) => {
    let clientDone = false;
    let grace: NodeJS.Timeout | undefined;
    const finish = (code: number): void => {
      clearTimeout(grace);
      socket.destroy();
      resolve(code);
    };
    socket.pipe(output, { end: false });
    // Ends the socket (half-close) on the client's EOF; the core then ends the session and closes its side.
    input.pipe(socket);
    input.once('end', () => {
      clientDone = true;
      grace = setTimeout(() => finish(0), END_GRACE_MS);
    });
    // The client stopped reading (it quit): nobody is left to relay to.
    output.once('error', () => {
      clientDone = true;
      finish(0);
    });
    socket.once('close', () => {
      if (!clientDone)
        log('the chrome-mcp core ended this session (it quit or was stopped); restart the MCP client to reconnect');
      finish(clientDone ? 0 : 1);
    });
  });
}

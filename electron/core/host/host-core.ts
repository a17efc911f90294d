// Serves a running core to MCP clients over its socket: every connection that proves it holds the token in core.json
// becomes its own MCP session. The tray app calls hostCore with its core; `chrome-mcp serve` claims the socket first
// and starts its core after, so a core that is going to be refused never takes the bridge port from the one serving.
import { chmodSync } from 'node:fs';
import type { Socket } from 'node:net';
import type { Log } from '../log.js';
import { type ServedCore, type ServerDeps, serverDeps } from '../mcp/build-server.js';
import { ensurePrivateDir } from '../pairing/private-files.js';
import { claimCoreAddress } from './claim-address.js';
import { coreAddress } from './core-address.js';
import { removeCoreFile, writeCoreFile } from './core-file.js';
import { newToken } from './handshake.js';
import { serveSession } from './session.js';

export interface CoreHost {
  /** The socket path (a pipe name on Windows) written to core.json. */
  address: string;
  /** Ends every session, stops listening, and removes the socket and core.json. */
  close(): Promise<void>;
}

/** The data dir's core address, held but not yet serving: core.json is written only by `serve`. */
export interface CoreClaim {
  serve(core: ServedCore): CoreHost;
  /** Gives the address up without serving (the core could not start). */
  release(): Promise<void>;
}

export interface HostOptions {
  dataDir: string;
  log: Log;
}

/** Throws CoreBusyError when another live core serves `dataDir`. */
export async function hostCore({ core, dataDir, log }: HostOptions & { core: ServedCore }): Promise<CoreHost> {
  return (await claimCoreHost({ dataDir, log })).serve(core);
}

/** Throws CoreBusyError when another live core serves `dataDir`. */
export async function claimCoreHost({ dataDir, log }: HostOptions): Promise<CoreClaim> {
  ensurePrivateDir(dataDir);
  const address = coreAddress(dataDir);
  const token = newToken();
  const sockets = new Set<Socket>();
  let deps: ServerDeps | undefined;
  let connections = 0;
  const server = await claimCoreAddress(address, dataDir, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // Before `serve` no relay knows the token (core.json is not written): only another core checking this one is alive.
    if (!deps) return void socket.destroy();
    const name = `core socket: session ${++connections}`;
    serveSession(socket, { deps, token, name, log }).catch((error: unknown) => {
      log(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      socket.destroy();
    });
  });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= new Promise<void>((resolve) => {
      removeCoreFile(dataDir, token);
      // Closing the server unlinks the socket file once the last connection is gone.
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    }));
  const guarded = <T>(step: () => T): T => {
    try {
      return step();
    } catch (error) {
      void close();
      throw error;
    }
  };

  // The socket is born with the umask's mode; the 0700 data dir already keeps other users out until this narrows it.
  if (process.platform !== 'win32') guarded(() => chmodSync(address, 0o600));
  return {
    serve(core) {
      deps = serverDeps(core, log);
      guarded(() => writeCoreFile(dataDir, { v: 1, socket: address, token, pid: process.pid }));
      log(`core socket listening on ${address}`);
      return { address, close };
    },
    release: close,
  };
}

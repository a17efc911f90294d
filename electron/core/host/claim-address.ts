// Listens on a data dir's core address unless a live core already does: one core per data dir, and a socket file
// left behind by a dead one is cleared instead of blocking every later start.
import { lstatSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { withFileLock } from '../pairing/file-lock.js';
import { readCoreFile } from './core-file.js';

/** Another core answers on this data dir's address. */
export class CoreBusyError extends Error {}

export async function claimCoreAddress(
  address: string,
  dataDir: string,
  onConnection: (socket: Socket) => void,
): Promise<Server> {
  // Two cores starting at once (two relays finding none) must not both judge the file stale, each removing the other's.
  return withFileLock(join(dataDir, 'core.sock.lock'), async () => {
    try {
      return await listen(address, onConnection);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
    // A pipe vanishes with its owner, so a taken pipe always means a live core.
    if (process.platform === 'win32' || (await answers(address))) throw busy(dataDir);
    if (!lstatSync(address).isSocket()) throw new Error(`${address} is in the way and is not a socket: move it away`);
    // A core that died without closing (SIGKILL, a crash) leaves its socket file behind, and nothing answers on it.
    rmSync(address, { force: true });
    return listen(address, onConnection);
  });
}

function listen(address: string, onConnection: (socket: Socket) => void): Promise<Server> {
  const server = createServer(onConnection);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** True when something accepts a connection at `address`; false when the file is dead or already gone. */
function answers(address: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = connect(address);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve(false);
      else reject(error);
    });
  });
}

function busy(dataDir: string): CoreBusyError {
  const pid = readCoreFile(dataDir)?.pid;
  return new CoreBusyError(
    `another chrome-mcp core${pid ? ` (pid ${pid})` : ''} is already serving ${dataDir}: connect to it with \`chrome-mcp relay\`, stop it, or give this one its own --data-dir`,
  );
}

// Where a data dir's core listens: `<data-dir>/core.sock` (a unix socket inside the private dir), or on Windows a
// named pipe whose name is derived from the data dir, so two data dirs never share one.
import { createHash } from 'node:crypto';
import { join } from 'node:path';

export const CORE_SOCKET = 'core.sock';

// sun_path holds 104 bytes on macOS, 108 on Linux, NUL included; a longer path is silently cut short by the
// kernel, which would put the socket outside the private data dir under a truncated name.
const MAX_SOCKET_PATH_BYTES = 103;

export function coreAddress(dataDir: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32')
    return `\\\\.\\pipe\\chrome-mcp-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
  const path = join(dataDir, CORE_SOCKET);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    throw new Error(
      `the core socket path ${path} is longer than the ${MAX_SOCKET_PATH_BYTES} bytes a unix socket allows: use a shorter --data-dir`,
    );
  }
  return path;
}

// One connection to the core socket: authenticate its first line, then serve it as its own MCP session, with its own
// server instance (so its own clientInfo names it in the activity and audit logs) over the shared core.
import type { Socket } from 'node:net';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Log } from '../log.js';
import { buildServer, type ServerDeps } from '../mcp/build-server.js';
import { readFirstLine } from './first-line.js';
import { AUTH_LIMITS, OK_LINE, presentsToken } from './handshake.js';

export interface SessionOptions {
  deps: ServerDeps;
  token: string;
  /** For the log: which connection this is. */
  name: string;
  log: Log;
}

/** Resolves once the session is serving, or once the peer was dropped; the socket's `close` ends the session. */
export async function serveSession(socket: Socket, { deps, token, name, log }: SessionOptions): Promise<void> {
  socket.on('error', (error) => log(`${name}: ${error.message}`));
  let line: string;
  try {
    line = await readFirstLine(socket, AUTH_LIMITS);
  } catch (error) {
    return drop(socket, `${name} dropped: ${(error as Error).message}`, log);
  }
  // Nothing the peer sent is echoed to the log: a wrong line may be someone's real token for something else.
  if (!presentsToken(line, token)) return drop(socket, `${name} dropped: its first line is not this core's token`, log);
  socket.write(OK_LINE);

  const server = buildServer(deps);
  const transport = new StdioServerTransport(socket, socket);
  transport.onerror = (error) => log(`${name}: ${error.message}`);
  // A transport that gives up (a message past its buffer limit) ends the connection with it.
  server.server.onclose = () => socket.destroy();
  await server.connect(transport);
  log(`${name} opened`);
  // Quoted: the name is the client's own words, and must not start a log line of its own.
  const closed = (): void => log(`${name} (${JSON.stringify(server.server.getClientVersion()?.name ?? 'no client name')}) closed`);
  if (socket.destroyed) void server.close().then(closed);
  else socket.once('close', () => void server.close().then(closed));
  socket.resume();
}

function drop(socket: Socket, why: string, log: Log): void {
  log(why);
  socket.destroy();
}

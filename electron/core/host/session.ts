// One connection to the core socket: the handshake first (handshake.ts), then its own MCP session, with its own
// server instance (so its own clientInfo names it in the activity and audit logs) over the shared core.
import type { Socket } from 'node:net';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ToolCap } from '../../../shared/policy/tool-caps.js';
import type { Log } from '../log.js';
import { buildServer, type ServerDeps } from '../mcp/build-server.js';
import { admitRelay } from './handshake.js';

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
  let caps: ToolCap[];
  try {
    caps = await admitRelay(socket, token);
  } catch (error) {
    // The reason is ours, never the peer's words: nothing it sent is echoed to the log.
    return drop(socket, `${name} dropped: ${(error as Error).message}`, log);
  }

  const agent = deps.agents.open();
  const server = buildServer(deps, agent, caps);
  const transport = new StdioServerTransport(socket, socket);
  transport.onerror = (error) => log(`${name}: ${error.message}`);
  // A transport that gives up (a message past its buffer limit) ends the connection with it.
  server.server.onclose = () => socket.destroy();
  await server.connect(transport);
  log(`${name} opened`);
  const end = (): void => {
    // At once, not after the server's close: another session's next call may take over its tab.
    const client = deps.agents.close(agent);
    // Quoted: the name is the client's own words (cleaned by the registry), and reads as a name, not as our words.
    void server.close().then(() => log(`${name} (${JSON.stringify(client?.name ?? 'no client name')}) closed`));
  };
  if (socket.destroyed) end();
  else socket.once('close', end);
  socket.resume();
}

function drop(socket: Socket, why: string, log: Log): void {
  log(why);
  socket.destroy();
}

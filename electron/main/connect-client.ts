// "Connect Claude Desktop / Claude Code / Cursor": our entry in the client's MCP config, naming the helper launcher's
// stable path, made as `chrome-mcp install-client` makes it; the person gets one line on what changed.
import { CLIENTS, type ClientName } from '../core/clients/client-paths.js';
import { registerClient, type RegisterResult } from '../core/clients/register-client.js';

export interface ConnectOutcome {
  ok: boolean;
  title: string;
  body: string;
}

/** `register` is registerClient (tests pass one bound to their own files and PATH). */
export async function connectClient(
  client: ClientName,
  launcher: string,
  register: typeof registerClient = registerClient,
): Promise<ConnectOutcome> {
  const label = CLIENTS[client].label;
  let result: RegisterResult;
  try {
    result = await register({ client, command: launcher });
  } catch (error) {
    return {
      ok: false,
      title: `Could not connect ${label}`,
      body: error instanceof Error ? error.message : String(error),
    };
  }
  if (result.action === 'unchanged')
    return {
      ok: true,
      title: `${label} is already connected`,
      body: `Its config (${result.path}) already runs Chrome MCP.`,
    };
  const backup = result.backup ? ` The old file is kept as ${result.backup}.` : '';
  const caution = result.caution ? ` ${result.caution}` : '';
  return {
    ok: true,
    title: `${label} connected`,
    body: `Restart ${label} to use Chrome MCP (${result.path}).${backup}${caution}`,
  };
}

// "Connect Claude Desktop / Claude Code / Cursor": our entry in the client's MCP config, naming the helper launcher's
// stable path; the person gets one line on what changed.
import { CLIENTS, type ClientName } from '../core/clients/client-paths.js';
import { installClient, type InstallClientResult } from '../core/clients/client-config.js';

export interface ConnectOutcome {
  ok: boolean;
  title: string;
  body: string;
}

/** `install` is installClient (tests pass a fake). */
export function connectClient(client: ClientName, launcher: string, install: typeof installClient = installClient): ConnectOutcome {
  const label = CLIENTS[client].label;
  let result: InstallClientResult;
  try {
    result = install({ client, command: launcher, args: [] });
  } catch (error) {
    return { ok: false, title: `Could not connect ${label}`, body: error instanceof Error ? error.message : String(error) };
  }
  if (result.action === 'unchanged') return { ok: true, title: `${label} is already connected`, body: `Its config (${result.path}) already runs Chrome MCP.` };
  const backup = result.backup ? ` The old file is kept as ${result.backup}.` : '';
  return { ok: true, title: `${label} connected`, body: `Restart ${label} to use Chrome MCP (${result.path}).${backup}` };
}

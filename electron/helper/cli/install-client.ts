// `chrome-mcp install-client`: registers chrome-mcp in an MCP client's config (or, with --remove, takes it away), naming
// the helper launcher in the data dir so the entry survives moving or updating chrome-mcp.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CLIENT_NAMES, CLIENTS, type ClientName, isClientName } from '../../core/clients/client-paths.js';
import { writeHelperLauncher } from '../../core/clients/helper-launcher.js';
import { SERVER_NAME } from '../../core/clients/mcp-servers.js';
import { registerClient, type RegisterResult } from '../../core/clients/register-client.js';
import { resolveDataDir } from '../../core/config.js';
import { parseFlags, UsageError } from './args.js';
import { BUILT_CLI } from '../../core/package-root.js';

export const usage = `Usage: chrome-mcp install-client ${CLIENT_NAMES.join('|')} [--config PATH] [--data-dir DIR] [--remove]

Adds chrome-mcp to an MCP client's config, under "mcpServers", as "${SERVER_NAME}". The entry runs
DIR/bin/chrome-mcp-helper, a launcher this writes for this chrome-mcp and data dir, so it keeps working
when chrome-mcp moves (run this again then). Flags you add to the entry's "args" (--allow example.com,
say) are kept. Every other entry and setting is kept; the file is backed up beside itself before any
change. Safe to run again. Restart the client afterwards.

Claude Code rewrites its config while it runs, so without --config its entry is made with its own
\`claude mcp add-json --scope user\` (\`claude mcp remove --scope user\` for --remove) when \`claude\` is
on PATH. Without it, the file is edited directly: quit Claude Code first.

Config files (default):
  claude-desktop  macOS ~/Library/Application Support/Claude/claude_desktop_config.json,
                  Windows %APPDATA%\\Claude\\claude_desktop_config.json, Linux ~/.config/Claude/claude_desktop_config.json
  claude-code     ~/.claude.json (user scope; in $CLAUDE_CONFIG_DIR when set)
  cursor          ~/.cursor/mcp.json

Options:
  --config PATH    edit this file instead
  --data-dir DIR   the state folder the server uses (env CHROME_MCP_DATA, default ~/.chrome-mcp)
  --remove         take the chrome-mcp entry away (the launcher stays: other clients may use it)
`;

function report(result: RegisterResult, client: ClientName): string {
  const how = result.viaClaudeCli ? ' with `claude mcp`' : '';
  const backup = result.backup ? `\nbackup of the previous file: ${result.backup}` : '';
  const restart = `\nRestart ${CLIENTS[client].label} to load the change.${result.caution ? `\n${result.caution}` : ''}`;
  switch (result.action) {
    case 'added':
      return `added ${SERVER_NAME} to ${result.path}${how}${backup}${restart}`;
    case 'updated':
      return `updated ${SERVER_NAME} in ${result.path}${how}${backup}${restart}`;
    case 'unchanged':
      return `${result.path} is already up to date`;
    case 'removed':
      return `removed ${SERVER_NAME} from ${result.path}${how}${backup}${restart}`;
    case 'absent':
      return `nothing to remove: ${result.path} has no ${SERVER_NAME} entry`;
  }
}

export async function run(argv: string[]): Promise<number> {
  // The client comes first, so a flag's value is never mistaken for it.
  const [client, ...flags] = argv;
  if (client === undefined || client.startsWith('-'))
    throw new UsageError(`name the client first: ${CLIENT_NAMES.join(', ')}`);
  if (!isClientName(client)) throw new UsageError(`unknown client '${client}': use ${CLIENT_NAMES.join(', ')}`);
  const values = parseFlags(flags, {
    config: { type: 'string' },
    'data-dir': { type: 'string' },
    remove: { type: 'boolean' },
  });
  const configPath = values.config ? resolve(values.config) : undefined;
  let result: RegisterResult;
  if (values.remove) {
    result = await registerClient({ client, configPath, remove: true });
  } else {
    if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: build chrome-mcp first (npm run build)`);
    const dataDir = resolveDataDir(values['data-dir']);
    // The data dir is pinned in the launcher: a client starts servers without the shell's CHROME_MCP_DATA.
    const launcher = writeHelperLauncher(dataDir, [process.execPath, BUILT_CLI, '--data-dir', dataDir]);
    process.stdout.write(`helper launcher: ${launcher}\n`);
    result = await registerClient({ client, configPath, command: launcher });
  }
  process.stdout.write(`${report(result, client)}\n`);
  return 0;
}

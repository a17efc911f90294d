// install-client's one entry point, for the CLI and the tray: Claude Code's user config goes through its own `claude mcp`
// command when that is on PATH and no file was named, because Claude Code rewrites ~/.claude.json while it runs and
// would undo (or be clobbered by) a direct edit; every other change is the file edit.
import { homedir } from 'node:os';
import { ClaudeCliError, runClaude } from './claude-cli.js';
import { currentConfig, installClient, type InstallClientRequest, type InstallClientResult } from './client-config.js';
import { defaultConfigPath } from './client-paths.js';
import { editServers, SERVER_NAME } from './mcp-servers.js';

export interface RegisterResult extends InstallClientResult {
  /** Made with `claude mcp`, which wrote the file itself (so there is no backup of ours). */
  viaClaudeCli?: true;
  /** What the person must still do for the change to hold. */
  caution?: string;
}

export interface RegisterOptions {
  /** Where `claude` is looked for (PATH) and where Claude Code keeps its config (CLAUDE_CONFIG_DIR); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** For each `claude` run; default CLAUDE_TIMEOUT_MS. */
  timeoutMs?: number;
}

const CLAUDE_REWRITES =
  'Claude Code rewrites this file while it runs and can undo this change: quit Claude Code before making it, or make it again once Claude Code has restarted.';

/** Adds, updates or takes away our entry, as installClient does, choosing how for Claude Code (see the header). */
export async function registerClient(
  request: InstallClientRequest,
  options: RegisterOptions = {},
): Promise<RegisterResult> {
  if (request.client !== 'claude-code') return installClient(request);
  const env = options.env ?? process.env;
  const path = request.configPath ?? defaultConfigPath('claude-code', process.platform, env, homedir());
  const fileEdit = (caution: string): RegisterResult => {
    const result = installClient({ ...request, configPath: path });
    return result.action === 'unchanged' || result.action === 'absent' ? result : { ...result, caution };
  };
  if (request.configPath) return fileEdit(CLAUDE_REWRITES);

  // Reading is safe while Claude Code runs, and tells what the change is: `claude mcp get` cannot say which scope an
  // entry is in, and some versions do not find user-scope entries at all (anthropics/claude-code#35202).
  const edit = editServers(currentConfig(path) ?? {}, path, request.remove ? undefined : request.command);
  if (edit.action === 'unchanged' || edit.action === 'absent') return { path, action: edit.action };
  // `add-json` refuses a name that is taken, and has no flag to replace it: an update is a removal, then an add.
  const steps: string[][] = [];
  if (edit.action !== 'added') steps.push(['mcp', 'remove', '--scope', 'user', SERVER_NAME]);
  if (edit.entry) steps.push(['mcp', 'add-json', '--scope', 'user', SERVER_NAME, JSON.stringify(edit.entry)]);
  for (const [step, args] of steps.entries()) {
    let outcome: 'done' | 'missing';
    try {
      outcome = await runClaude(args, env, options.timeoutMs);
    } catch (error) {
      if (!(error instanceof ClaudeCliError)) throw error;
      const verb = request.remove ? 'remove' : edit.action === 'added' ? 'add' : 'update';
      const gone =
        step > 0
          ? ' Its old entry had already been taken out to be replaced, so Claude Code has no chrome-mcp now.'
          : '';
      throw new ClaudeCliError(
        `Claude Code could not ${verb} ${SERVER_NAME}: ${error.message}.${gone} See \`claude mcp list\`, then try again.`,
      );
    }
    // No `claude` (looked up at the first step, so nothing ran): the direct edit is all that is left, with its caution.
    if (outcome === 'missing')
      return fileEdit(`The \`claude\` command is not on PATH, so the file was edited directly. ${CLAUDE_REWRITES}`);
  }
  return { path, action: edit.action, viaClaudeCli: true };
}

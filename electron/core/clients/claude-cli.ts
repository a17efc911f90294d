// Claude Code's own `claude` command, run the one safe way: no shell (our JSON goes in as one argument, never parsed
// by a shell), nothing to answer on stdin, and stopped when it takes too long.
import { execFile } from 'node:child_process';
import { delimiter, join } from 'node:path';

/** Long enough for a cold start of Claude Code's CLI, short enough that a stuck one does not hold the tray. */
export const CLAUDE_TIMEOUT_MS = 30_000;

/** `claude` ran and failed, or did not finish in time; the message says which, in the person's words. */
export class ClaudeCliError extends Error {}

/** The last thing the command said, on one short line: its error, without any help text it printed before. */
function lastWords(stderr: string, stdout: string): string {
  const line = (stderr.trim() || stdout.trim()).split('\n').at(-1)?.trim() ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/**
 * `env` with its PATH extended by the folders Claude Code's installers put `claude` in. An app started from the Dock or
 * at login gets a bare PATH (/usr/bin:/bin:/usr/sbin:/sbin on macOS), which would miss it where the person's terminal
 * finds it: the native installer's ~/.local/bin, the older ~/.claude/local, and on macOS Homebrew's and /usr/local's bin.
 */
export function withClaudeInstallDirs(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): NodeJS.ProcessEnv {
  const home = platform === 'win32' ? env['USERPROFILE'] : env['HOME'];
  const usual = [
    ...(home ? [join(home, '.local', 'bin'), join(home, '.claude', 'local')] : []),
    ...(platform === 'darwin' ? ['/opt/homebrew/bin', '/usr/local/bin'] : []),
  ];
  const path = (env['PATH'] ?? '').split(delimiter).filter(Boolean);
  return { ...env, PATH: [...path, ...usual.filter((dir) => !path.includes(dir))].join(delimiter) };
}

/**
 * Runs `claude ...args` with `env`, whose PATH (and the usual install folders after it) finds it. Resolves 'done' when it exits 0, 'missing' when there is no
 * `claude` on PATH (so nothing ran at all); rejects with ClaudeCliError otherwise.
 */
export function runClaude(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = CLAUDE_TIMEOUT_MS,
): Promise<'done' | 'missing'> {
  // Named by its subcommand only: the full line carries our entry, whose env may hold the person's keys.
  const named = `\`claude ${args.slice(0, 2).join(' ')}\``;
  return new Promise((resolve, reject) => {
    const child = execFile(
      'claude',
      args,
      { env: withClaudeInstallDirs(env), timeout: timeoutMs, windowsHide: true, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) return resolve('done');
        if (error.code === 'ENOENT') return resolve('missing');
        if (error.killed)
          return reject(new ClaudeCliError(`${named} did not finish within ${timeoutMs / 1000} s and was stopped`));
        if (typeof error.code === 'number')
          return reject(
            new ClaudeCliError(
              `${named} failed (exit code ${error.code}): ${lastWords(stderr, stdout) || 'it gave no reason'}`,
            ),
          );
        reject(new ClaudeCliError(`${named} could not be run: ${error.message}`));
      },
    );
    // It should ask nothing; if it did, an open stdin would leave it waiting until the timeout.
    child.stdin?.end();
  });
}

// The core's own flags for the subcommands that start or reach a core (serve, relay): parsed by the same parseCli as
// the default command, so the three accept exactly the same options.
import { type Config, parseCli } from '../../core/config.js';

/** The configuration, or the exit code after --version or a bad flag has been answered. */
export function coreConfig(argv: string[], cliUsage: string): Config | number {
  const outcome = parseCli(argv, process.env, process.platform, cliUsage);
  if (outcome.kind === 'run') return outcome.config;
  if (outcome.stdout) process.stdout.write(outcome.stdout);
  if (outcome.stderr) process.stderr.write(outcome.stderr);
  return outcome.code;
}

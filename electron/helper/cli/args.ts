// Flag parsing shared by the subcommands: strict flags, and a usage error the dispatcher turns into exit 2.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

/** The flags of one subcommand; throws UsageError on an unknown flag, a missing value or a stray argument. */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

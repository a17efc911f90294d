// The human subcommands of `chrome-mcp` (pairing, install, diagnosis), each loaded only when named, so the default
// command (the MCP server) never pays for them.
import { USAGE } from '../../core/config.js';
import { UsageError } from './args.js';

export interface Command {
  usage: string;
  /** The exit code; the command writes to stdout and stderr itself. `cliUsage`: the top-level help, for a bad flag. */
  run(argv: string[], cliUsage: string): Promise<number>;
}

const COMMANDS = {
  'install-native-host': {
    summary: 'let Chrome, Chromium, Edge and Brave find the pairing host',
    load: () => import('./install-native-host.js'),
  },
  pair: { summary: 'show a one-time code to pair the extension by hand', load: () => import('./pair.js') },
  'extension-path': {
    summary: 'print the folder to load as an unpacked extension',
    load: () => import('./extension-path.js'),
  },
  doctor: {
    summary: 'say what is installed, what is connected, and how to fix what is not',
    load: () => import('./doctor.js'),
  },
  ui: { summary: 'open the panel of the running chrome-mcp in your browser', load: () => import('./ui.js') },
  'install-client': {
    summary: 'add chrome-mcp to Claude Desktop, Claude Code or Cursor',
    load: () => import('./install-client.js'),
  },
  serve: {
    summary: 'run one core that several MCP clients share through `chrome-mcp relay`',
    load: () => import('./serve.js'),
  },
  relay: {
    summary: 'what an MCP client runs to use that shared core (starts it when none is running)',
    load: () => import('./relay.js'),
  },
  // Started by the browser through the wrapper that install-native-host writes, never by hand.
  'native-host': { summary: '', load: () => import('./native-host.js') },
} satisfies Record<string, { summary: string; load: () => Promise<Command> }>;

export type CommandName = keyof typeof COMMANDS;

export function isCommand(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(COMMANDS, name);
}

/** `  name   summary` lines for the top-level --help. */
function commandSummaries(): string {
  const shown = Object.entries(COMMANDS).filter(([, command]) => command.summary);
  const width = Math.max(...shown.map(([name]) => name.length)) + 3;
  return shown.map(([name, command]) => `  ${name.padEnd(width)}${command.summary}\n`).join('');
}

/** The top-level --help: the core's options (the core knows nothing of the commands), then the commands. */
export function cliUsage(): string {
  return `${USAGE}\nCommands:\n${commandSummaries()}`;
}

export async function runCommand(name: CommandName, argv: string[]): Promise<number> {
  const command = await COMMANDS[name].load();
  if (name !== 'native-host' && argv.includes('--help')) {
    process.stdout.write(command.usage);
    return 0;
  }
  try {
    return await command.run(argv, cliUsage());
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`chrome-mcp ${name}: ${error.message}\n\n${command.usage}`);
      return 2;
    }
    process.stderr.write(`chrome-mcp ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

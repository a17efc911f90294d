// Command-line flags and environment → the core's configuration; also answers --help, --version and bad flags.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { policyFromFlags, type PolicyFlags } from '../../shared/policy/flags.js';
import { DEFAULT_BRIDGE_PORT } from '../../shared/protocol/wire.js';
import { TOOL_CAPS, type ToolCap } from '../../shared/policy/tool-caps.js';
import type { BrowserChoice } from './backend/backend-manager.js';
import { VERSION } from './version.js';
import { type FileFolders, fileFolders } from './files/folders.js';

export interface Config {
  headless: boolean;
  /** Explicit browser binary; undefined lets the launcher search the usual install places. */
  executablePath: string | undefined;
  dataDir: string;
  /** The fallback browser's own profile: never the person's. */
  profileDir: string;
  /** Which backend serves calls: the extension when it answers, else the fallback (auto); or only one of them. */
  browser: BrowserChoice;
  /** Loopback port the extension dials; 0 picks a free one (the native host tells the extension which). */
  port: number;
  /** One-run grants: `--allow` (act) and `--trust` (scripts too), already checked to parse. */
  grants: PolicyFlags;
  /** Where the person's standing rules live: `--policy FILE`, else `policy.json` in the data dir. */
  policyFile: string;
  /** `--policy` was given: the file must exist. */
  policyFileRequired: boolean;
  /** Loopback port of the control API (the panel's); 0 picks a free one. */
  controlPort: number;
  /** The person's extra Chromium flags for the fallback browser (`--browser-arg`). */
  browserArgs: string[];
  /** Opt-in tool capabilities every session of this core lists (`--caps`); a relay's session may add its own. */
  caps: ToolCap[];
  /** Uploads only from the data dir's `uploads` and each `--upload-dir`; downloads into the data dir's `downloads`. */
  files: FileFolders;
}

/** Flags chrome-mcp sets itself: the profile it owns, and the pipe that is its only way in. */
const OWNED_BROWSER_FLAGS = ['--user-data-dir', '--remote-debugging-pipe'];

const BROWSER_CHOICES: readonly BrowserChoice[] = ['auto', 'extension', 'fallback'];

export type CliOutcome =
  { kind: 'run'; config: Config } | { kind: 'exit'; code: 0 | 2; stdout?: string; stderr?: string };

export const USAGE = `Usage: chrome-mcp [options]
       chrome-mcp <command> [--help]

An MCP server on stdio that drives Chrome or Chromium.

Options:
  --headless               no browser window (default: a window when a display is available)
  --executable-path PATH   browser to launch (env CHROME_MCP_CHROMIUM)
  --data-dir DIR           state folder (env CHROME_MCP_DATA, default ~/.chrome-mcp)
  --browser MODE           auto (default): your Chrome through the extension when it answers, else a browser
                           chrome-mcp launches; extension or fallback: only that one
  --port N                 loopback port the extension connects to (default ${DEFAULT_BRIDGE_PORT}; 0 = any free port)
  --allow HOST[,HOST]      let the model read and act on these sites for this run (repeatable)
  --trust HOST[,HOST]      as --allow, and let it run scripts there (eval)
  --policy FILE            site rules (docs/policy.md; default DATA_DIR/policy.json); sites with no rule are asked about
  --control-port N         loopback port of the control API the panel uses (default 0 = any free port)
  --browser-arg=FLAG       an extra Chromium flag for the browser chrome-mcp launches, e.g. --browser-arg=--lang=fr
                           (repeatable; the = is needed)
  --caps CAP[,CAP]         opt-in tools to list as well: ${TOOL_CAPS.join(', ')} (README "Tools"; repeatable)
  --upload-dir DIR         a folder upload_file may take files from, besides DATA_DIR/uploads (repeatable)
  --help                   show this help
  --version                show the version
`;

const OPTIONS = {
  headless: { type: 'boolean' },
  'executable-path': { type: 'string' },
  'data-dir': { type: 'string' },
  browser: { type: 'string' },
  port: { type: 'string' },
  allow: { type: 'string', multiple: true },
  trust: { type: 'string', multiple: true },
  policy: { type: 'string' },
  'control-port': { type: 'string' },
  'browser-arg': { type: 'string', multiple: true },
  caps: { type: 'string', multiple: true },
  'upload-dir': { type: 'string', multiple: true },
  help: { type: 'boolean' },
  version: { type: 'boolean' },
} as const;

/** macOS and Windows always have a desktop; elsewhere a window needs an X or Wayland display. */
export function hasDisplay(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return !!env['DISPLAY'] || !!env['WAYLAND_DISPLAY'];
}

/** The state folder: the flag, else CHROME_MCP_DATA, else ~/.chrome-mcp; the subcommands resolve it the same way. */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  // An empty variable counts as unset, so `CHROME_MCP_DATA= chrome-mcp` does not mean "the current folder".
  return resolve(flag || env['CHROME_MCP_DATA'] || join(homedir(), '.chrome-mcp'));
}

function readFlags(argv: string[]) {
  return parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }).values;
}

/**
 * `usage` is what --help and a bad flag print: the CLI passes USAGE with its command list appended (the core knows
 * nothing of the commands), the app and the tests the bare USAGE.
 */
export function parseCli(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  usage = USAGE,
): CliOutcome {
  let values: ReturnType<typeof readFlags>;
  try {
    values = readFlags(argv);
  } catch (error) {
    return badFlag((error as Error).message, usage);
  }
  if (values.help) return { kind: 'exit', code: 0, stdout: usage };
  if (values.version) return { kind: 'exit', code: 0, stdout: `${VERSION}\n` };
  const dataDir = resolveDataDir(values['data-dir'], env);
  const browser = (values.browser ?? 'auto') as BrowserChoice;
  if (!BROWSER_CHOICES.includes(browser))
    return badFlag(`--browser takes ${BROWSER_CHOICES.join(', ')}, not "${values.browser}"`, usage);
  const port = values.port === undefined ? DEFAULT_BRIDGE_PORT : Number(values.port);
  if (!isPort(port)) return badFlag(`--port takes a port number (0 for any free one), not "${values.port}"`, usage);
  const controlPort = values['control-port'] === undefined ? 0 : Number(values['control-port']);
  if (!isPort(controlPort))
    return badFlag(`--control-port takes a port number (0 for any free one), not "${values['control-port']}"`, usage);
  const browserArgs = values['browser-arg'] ?? [];
  const badArg = browserArgs.find(
    (arg) => !arg.startsWith('--') || OWNED_BROWSER_FLAGS.some((owned) => arg.split('=')[0] === owned),
  );
  if (badArg !== undefined)
    return badFlag(
      `--browser-arg takes a Chromium flag (--name or --name=value) other than ${OWNED_BROWSER_FLAGS.join(', ')}, not "${badArg}"`,
      usage,
    );
  const caps = parseCaps(values.caps ?? []);
  if (typeof caps === 'string') return badFlag(caps, usage);
  const grants = { allow: values.allow ?? [], trust: values.trust ?? [] };
  try {
    policyFromFlags(grants);
  } catch (error) {
    return badFlag((error as Error).message, usage);
  }
  return {
    kind: 'run',
    config: {
      headless: values.headless === true || !hasDisplay(env, platform),
      executablePath: values['executable-path'] || env['CHROME_MCP_CHROMIUM'] || undefined,
      dataDir,
      profileDir: join(dataDir, 'fallback-profile'),
      browser,
      port,
      grants,
      policyFile: values.policy === undefined ? join(dataDir, 'policy.json') : resolve(values.policy),
      policyFileRequired: values.policy !== undefined,
      controlPort,
      browserArgs,
      caps,
      files: fileFolders(dataDir, values['upload-dir'] ?? []),
    },
  };
}

/** The capabilities named, each once; or why a name is not one. */
function parseCaps(flags: string[]): ToolCap[] | string {
  const names = flags.flatMap((flag) => flag.split(',')).map((name) => name.trim());
  const bad = names.find((name) => !(TOOL_CAPS as readonly string[]).includes(name));
  if (bad !== undefined) return `--caps takes ${TOOL_CAPS.join(', ')}, not "${bad}"`;
  return [...new Set(names as ToolCap[])];
}

function isPort(port: number): boolean {
  return Number.isInteger(port) && port >= 0 && port <= 65_535;
}

function badFlag(message: string, usage: string): CliOutcome {
  return { kind: 'exit', code: 2, stderr: `chrome-mcp: ${message}\n\n${usage}` };
}

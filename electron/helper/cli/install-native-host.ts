// `chrome-mcp install-native-host`: writes (or with --remove, takes away) the pairing host's wrapper and manifests.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { resolveDataDir } from '../../core/config.js';
import { BROWSERS, type BrowserName, profileRoot } from '../../core/pairing/host-manifest.js';
import { ensurePrivateDir, writeFileAtomic } from '../../core/pairing/private-files.js';
import { parseFlags, UsageError } from './args.js';
import { type InstallStep, planInstall } from './install-plan.js';
import { BUILT_CLI } from '../../core/package-root.js';

export const usage = `Usage: chrome-mcp install-native-host [--browser chrome|chromium|edge|brave|all] [--browser-data-dir DIR]
                                     [--data-dir DIR] [--remove]

Lets the Chrome MCP extension fetch its pairing secret without a click: writes the native-messaging
host manifest (com.chrome_mcp.bridge, only our extension id allowed) where the browser looks for it
(on Windows, the registry key too), and a wrapper in the data dir that runs this chrome-mcp. Safe to
run again; run it again after moving node or chrome-mcp. The Chrome MCP app does this for itself at each
start (its wrapper runs the app, not node), so with the app you need not run it.

Options:
  --browser NAME          chrome, chromium, edge, brave or all (default: each with a profile folder here,
                          else chrome; with --remove, all)
  --browser-data-dir DIR  a browser started with --user-data-dir=DIR: write into DIR/NativeMessagingHosts only
  --data-dir DIR          the core's state folder the host serves (env CHROME_MCP_DATA, default ~/.chrome-mcp)
  --remove                take the manifests (and, for all browsers, the wrapper) away
`;

export type CommandRunner = (file: string, args: string[]) => void;

const runQuietly: CommandRunner = (file, args) => {
  execFileSync(file, args, { stdio: 'ignore' });
};

/** Applies the steps; a line per step says what happened. Rewrites only what differs, so a re-run reports "unchanged". */
export function applySteps(steps: InstallStep[], run: CommandRunner = runQuietly): string[] {
  const lines: string[] = [];
  for (const step of steps) {
    if (step.kind === 'private-dir') {
      ensurePrivateDir(step.path);
    } else if (step.kind === 'write') {
      if (existsSync(step.path) && readFileSync(step.path, 'utf8') === step.text) {
        lines.push(`unchanged ${step.path}`);
        continue;
      }
      mkdirSync(dirname(step.path), { recursive: true });
      writeFileAtomic(step.path, step.text, step.mode);
      lines.push(`wrote     ${step.path}`);
    } else if (step.kind === 'remove') {
      if (!existsSync(step.path)) continue;
      rmSync(step.path, { force: true });
      lines.push(`removed   ${step.path}`);
    } else {
      try {
        run(step.file, step.args);
        lines.push(`ran       ${[step.file, ...step.args].join(' ')}`);
      } catch (error) {
        if (!step.optional) throw error;
      }
    }
  }
  return lines;
}

/**
 * The browsers to install for when none is named (here and in the app): those with a profile folder here (else Chrome),
 * so an install makes no folders for browsers that are not installed; on Windows, whose registry keys make no folders,
 * all four.
 */
export function browsersHere(platform: NodeJS.Platform, home: string): readonly BrowserName[] {
  if (platform === 'win32') return BROWSERS;
  const found = BROWSERS.filter((browser) => existsSync(profileRoot(browser, platform, home)!));
  return found.length ? found : ['chrome'];
}

/** --browser NAME or all; none means browsersHere, or all four for removal. */
function browsersFrom(flag: string | undefined, remove: boolean): readonly BrowserName[] {
  if (flag === 'all' || (flag === undefined && remove)) return BROWSERS;
  if (flag === undefined) return browsersHere(process.platform, homedir());
  if ((BROWSERS as readonly string[]).includes(flag)) return [flag as BrowserName];
  throw new UsageError(`unknown browser '${flag}': use chrome, chromium, edge, brave or all`);
}

export async function run(argv: string[]): Promise<number> {
  const values = parseFlags(argv, {
    browser: { type: 'string' },
    'browser-data-dir': { type: 'string' },
    'data-dir': { type: 'string' },
    remove: { type: 'boolean' },
  });
  if (!values.remove && !existsSync(BUILT_CLI))
    throw new Error(`${BUILT_CLI} is missing: build chrome-mcp first (npm run build)`);
  const browserDataDir = values['browser-data-dir'];
  const dataDir = resolveDataDir(values['data-dir']);
  const steps = planInstall({
    platform: process.platform,
    home: homedir(),
    dataDir,
    node: process.execPath,
    cli: BUILT_CLI,
    browsers: browsersFrom(values.browser, values.remove === true),
    ...(browserDataDir ? { browserDataDir: resolve(browserDataDir) } : {}),
    remove: values.remove === true,
  });
  const lines = applySteps(steps);
  process.stdout.write(lines.length ? `${lines.join('\n')}\n` : 'nothing to remove\n');
  if (!values.remove) process.stdout.write(`The extension now gets its pairing secret from ${dataDir} on its own.\n`);
  return 0;
}

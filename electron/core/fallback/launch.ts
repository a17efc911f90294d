// Launches the fallback browser on an owned profile, with ours the only CDP connection to it (over its launch pipe).
import { mkdirSync } from 'node:fs';
import { ToolError } from '../../../shared/protocol/errors.js';
import { BrowserStartError, startBrowserProcess, type BrowserProcess } from './browser-process.js';
import type { CdpConnection } from './cdp-connection.js';
import { findBrowser } from './find-browser.js';
import { turnOffPreloading } from './profile-prefs.js';
import { recoverProfileLock } from './profile-lock.js';

export interface LaunchOptions {
  executablePath?: string;
  headless: boolean;
  profileDir: string;
  /** The person's own extra flags (`--browser-arg`), after ours so they win where both set one. */
  extraArgs?: string[];
  log: (line: string) => void;
}

export interface LaunchedBrowser {
  connection: CdpConnection;
  close(): Promise<void>;
  /** Kills it at once, profile unsaved: for a caller that deletes the profile next (tests), spared close()'s save. */
  kill(): Promise<void>;
}

const BROWSER_FLAGS = [
  // Quiet: without the network ones Chromium floods a closed network and stalls start-up.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-breakpad',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-features=Translate,MediaRouter,OptimizationHints',
  // Our own profile needs no OS keyring; with a session bus Chromium would otherwise reach for one (and may prompt).
  '--password-store=basic',
  // The agent drives background tabs: their timers and rendering run at full speed, as in the tab in front.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
  // Containers give /dev/shm a few megabytes, and renderers crash on big pages without this.
  '--disable-dev-shm-usage',
];

const HEADLESS_FLAGS = ['--headless', '--disable-gpu', '--hide-scrollbars', '--mute-audio'];

/** Chromium refuses to run as root with its sandbox, and some containers cannot give it the namespaces it needs. */
const NO_SANDBOX = '--no-sandbox';
const SANDBOX_UNUSABLE = /No usable sandbox|setuid sandbox|Operation not permitted.*namespace/i;

function browserArgs(options: LaunchOptions, sandbox: boolean): string[] {
  return [
    ...BROWSER_FLAGS,
    ...(options.headless ? HEADLESS_FLAGS : []),
    ...(sandbox ? [] : [NO_SANDBOX]),
    `--user-data-dir=${options.profileDir}`,
    ...(options.extraArgs ?? []),
    'about:blank',
  ];
}

/** Starts the browser, without its sandbox where the sandbox cannot work here (logged, so the person knows). */
async function start(options: LaunchOptions, executable: string): Promise<BrowserProcess> {
  // Before each start: an orphan cleared from the profile may have written its own prefs back on its way out.
  turnOffPreloading(options.profileDir);
  const asRoot = process.getuid?.() === 0;
  try {
    return await startBrowserProcess(executable, browserArgs(options, !asRoot));
  } catch (error) {
    if (asRoot || !(error instanceof BrowserStartError) || !SANDBOX_UNUSABLE.test(error.output)) throw error;
    options.log('the browser sandbox is unusable on this system; starting the fallback browser without it');
    return startBrowserProcess(executable, browserArgs(options, false));
  }
}

function launchFailed(error: unknown): ToolError {
  const lastLine = error instanceof BrowserStartError ? error.output.trim().split('\n').pop() : undefined;
  return new ToolError(
    'LAUNCH_FAILED',
    `Browser launch failed: ${(error as Error).message}${lastLine ? ` (${lastLine})` : ''}`,
  );
}

export async function launchBrowser(options: LaunchOptions): Promise<LaunchedBrowser> {
  const executable = findBrowser(options.executablePath);
  if (!executable) {
    throw new ToolError('LAUNCH_FAILED', 'No Chrome or Chromium found.', {
      next: 'Install Chrome or Chromium, or pass --executable-path / set CHROME_MCP_CHROMIUM.',
    });
  }
  mkdirSync(options.profileDir, { recursive: true, mode: 0o700 });
  let browser: BrowserProcess;
  try {
    browser = await start(options, executable);
  } catch (first) {
    // A browser still running on this profile makes a new one hand over to it and exit: clear it if it is ours.
    const recovery = recoverProfileLock(options.profileDir);
    if (recovery === 'none' || recovery === 'held') throw launchFailed(first);
    options.log(`profile lock recovered (${recovery}); launching again`);
    browser = await start(options, executable).catch((second: unknown) => Promise.reject(launchFailed(second)));
  }
  return { connection: browser.connection, close: () => browser.close(), kill: () => browser.kill() };
}

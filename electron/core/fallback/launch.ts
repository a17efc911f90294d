// Launches the fallback browser through playwright-core on an owned profile, and opens our raw CDP socket to it.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserContext } from 'playwright-core';
import { ToolError } from '../../../shared/protocol/errors.js';
import { CdpConnection } from './cdp-connection.js';
import { findBrowser } from './find-browser.js';
import { recoverProfileLock } from './profile-lock.js';

export interface LaunchOptions {
  executablePath?: string;
  headless: boolean;
  profileDir: string;
  log: (line: string) => void;
}

export interface LaunchedBrowser {
  connection: CdpConnection;
  close(): Promise<void>;
}

// Quiet flags: without the network ones Chromium floods a closed network and stalls start-up.
const BROWSER_FLAGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-features=Translate,MediaRouter,OptimizationHints',
  // Our own profile needs no OS keyring; with a session bus Chromium would otherwise reach for one (and may prompt).
  '--password-store=basic',
  // Our own CDP socket beside playwright's pipe, so the engine can address child sessions.
  '--remote-debugging-port=0',
];

/** The ws:// endpoint of the browser debugging `profileDir`, once Chromium has written it. */
export async function readDevToolsEndpoint(profileDir: string): Promise<string> {
  const file = join(profileDir, 'DevToolsActivePort');
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      const [port, path] = readFileSync(file, 'utf8').split('\n');
      if (port && path) return `ws://127.0.0.1:${port.trim()}${path.trim()}`;
    } catch {
      // Not written yet: Chromium writes it once the debugging server listens.
    }
    await sleep(20);
  }
  throw new ToolError('LAUNCH_FAILED', 'The browser started but never opened its debugging port.');
}

async function launchContext(options: LaunchOptions, executablePath: string): Promise<BrowserContext> {
  const { chromium } = await import('playwright-core');
  const headlessFlags = options.headless ? ['--disable-gpu'] : [];
  return chromium.launchPersistentContext(options.profileDir, {
    executablePath,
    headless: options.headless,
    args: [...BROWSER_FLAGS, ...headlessFlags],
    viewport: null,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

export async function launchBrowser(options: LaunchOptions): Promise<LaunchedBrowser> {
  const executablePath = findBrowser(options.executablePath);
  if (!executablePath) {
    throw new ToolError('LAUNCH_FAILED', 'No Chrome or Chromium found.', {
      next: 'Install Chrome or Chromium, or pass --executable-path / set CHROME_MCP_CHROMIUM.',
    });
  }
  mkdirSync(options.profileDir, { recursive: true, mode: 0o700 });
  // A stale port file would point us at a browser that no longer exists.
  rmSync(join(options.profileDir, 'DevToolsActivePort'), { force: true });
  let context: BrowserContext;
  try {
    context = await launchContext(options, executablePath);
  } catch (first) {
    const recovery = recoverProfileLock(options.profileDir);
    if (recovery === 'none' || recovery === 'held') {
      throw new ToolError('LAUNCH_FAILED', `Browser launch failed: ${(first as Error).message.split('\n')[0]}`);
    }
    options.log(`profile lock recovered (${recovery}); launching again`);
    context = await launchContext(options, executablePath);
  }
  try {
    const connection = await CdpConnection.connect(await readDevToolsEndpoint(options.profileDir));
    return {
      connection,
      async close() {
        connection.close();
        await context.close().catch(() => undefined);
      },
    };
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}

// A headed Chromium under Xvfb, started without playwright: the one test setup where a background tab drops CDP input
// as a person's Chrome does. (Playwright turns focus emulation on for every page it sees, and headless Chromium
// delivers input to background tabs anyway, so neither can show that focus emulation is needed.)
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBrowserProcess, type BrowserProcess } from '../../electron/core/fallback/browser-process.js';
import { CdpTabHost } from '../../electron/core/fallback/cdp-tab-host.js';
import { findBrowser } from '../../electron/core/fallback/find-browser.js';
import type { Cdp } from '../../shared/engine/cdp.js';
import { PausedChain } from '../../shared/engine/paused-chain.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { openTab } from './browser.js';
import { TEST_GATE } from './test-policy.js';
import { removeDir } from './remove-dir.js';

export interface HeadedBrowser {
  host: CdpTabHost;
  /** The tab in front when the browser started; it must stay in front. */
  foreground: PageContext;
  /** Opens a background tab at url and waits for load; `wrap` sees every CDP command the page's engine sends. */
  open(url: string, wrap?: (cdp: Cdp) => Cdp): Promise<{ tabId: string; page: PageContext }>;
  close(): Promise<void>;
}

const XVFB = ['/usr/bin/Xvfb', '/usr/local/bin/Xvfb'].find((path) => existsSync(path));

/** Why the headed tests cannot run here, or undefined when they can. */
export function headedUnavailable(): string | undefined {
  if (!findBrowser(undefined)) return 'no Chromium';
  if (!process.env['DISPLAY'] && !XVFB) return 'no DISPLAY and no Xvfb';
  return undefined;
}

export async function startHeadedBrowser(): Promise<HeadedBrowser> {
  const children: ChildProcess[] = [];
  const display = process.env['DISPLAY'] ?? (await startXvfb(children));
  const profileDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-headed-'));
  const root = process.getuid?.() === 0;
  const stopXvfb = async () => {
    for (const child of children.reverse()) {
      child.kill('SIGKILL');
      await new Promise<void>((resolve) =>
        child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
      );
    }
    // The browser's helper processes may still be letting go of the profile for a moment.
    removeDir(profileDir);
  };
  let browser: BrowserProcess | undefined;
  const close = async () => {
    await browser?.kill();
    await stopXvfb();
  };
  try {
    browser = await startBrowserProcess(
      findBrowser(undefined)!,
      [
        '--no-first-run',
        '--no-default-browser-check',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--user-data-dir=${profileDir}`,
        '--window-size=1000,800',
        ...(root ? ['--no-sandbox'] : []),
        'about:blank',
      ],
      { ...process.env, DISPLAY: display },
    );
    const host = new CdpTabHost(browser.connection, TEST_GATE);
    const [front] = await host.list();
    const foreground = new PageContext(await host.cdp(front!.id), TEST_GATE);
    const pages: PageContext[] = [foreground];
    return {
      host,
      foreground,
      open: (url, wrap) => openTab(host, url, pages, wrap),
      async close() {
        for (const page of pages) page.dispose();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function startXvfb(children: ChildProcess[]): Promise<string> {
  // -displayfd: Xvfb picks a free display and writes its number to fd 3 once it accepts clients.
  const xvfb = spawn(XVFB!, ['-displayfd', '3', '-screen', '0', '1280x900x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  children.push(xvfb);
  const number = await new Promise<string>((resolve, reject) => {
    let text = '';
    xvfb.stdio[3]!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
  });
  return `:${number}`;
}

/** Wraps a tab's CDP handle, recording the method of every command sent through it; its guards chain on their own. */
export function recordingCdp(cdp: Cdp, methods: string[]): Cdp {
  const wrapped: Omit<Cdp, 'pausedChain'> = {
    send<R>(method: string, params?: Record<string, unknown>, sessionId?: string) {
      methods.push(method);
      return cdp.send<R>(method, params, sessionId);
    },
    on: (listener) => cdp.on(listener),
  };
  return { ...wrapped, pausedChain: new PausedChain(wrapped) };
}

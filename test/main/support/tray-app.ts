// What the tray app test files share: the app run from `ready` to Quit in temp folders, and its tray menu clicked.
import { mkdtempSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeEach, expect, type Mock, vi } from 'vitest';
import * as electron from 'electron';
import logger from 'electron-log/main';
import { runApp } from '../../../electron/main/app.js';
import { runRelay } from '../../../electron/helper/relay.js';
import { cleanUpDataDirs, freshDataDir, initialize, rawRpc } from '../../host/support.js';
import { FakeBrowserWindow, Tray } from './fake-electron.js';
import { removeDir } from '../../support/remove-dir.js';

// Electron, electron-log/main and the core module are the test file's to mock (vi.mock is hoisted per file): this
// module sees the fakes because the file's mocks are in place before anything is imported.
export const app = electron.app as unknown as EventEmitter & Record<'whenReady' | 'exit' | 'getPath', Mock>;

export const scratch = mkdtempSync(join(tmpdir(), 'cm-app-'));
logger.transports.file.resolvePathFn = () => join(scratch, 'main.log');
logger.transports.console.level = false;

const savedEnv = { ...process.env };
let running = false;

interface Started {
  dataDir: string;
  userData: string;
}

/** runApp as main.ts calls it, once Electron is ready; resolves when start-up is done (the pairing panel opens last). */
export async function startApp({
  isPackaged = true,
  dataDir = freshDataDir(),
  userData = mkdtempSync(join(scratch, 'user-')),
} = {}): Promise<Started> {
  process.env['CHROME_MCP_DATA'] = dataDir;
  app.getPath.mockImplementation((name: string) => join(userData, name === 'userData' ? '' : name));
  const windows = FakeBrowserWindow.all.length;
  runApp({
    mainDir: join(scratch, 'build'),
    appPath: '/opt/chrome-mcp/app',
    resourcesPath: '/opt/chrome-mcp/resources',
    isPackaged,
  });
  running = true;
  const opened = (): string | undefined => FakeBrowserWindow.all.slice(windows).at(-1)?.webContents.loads[0]?.url;
  await expect.poll(opened, { timeout: 15_000 }).toBe('app://panel/index.html#screen=connection');
  return { dataDir, userData };
}

/**
 * Emits Quit as Electron does. Returns the app's quit deadline: a real `app.exit` ends the process and that timer with
 * it, the fake does not, so the caller clears it before it fires into a later test.
 */
export function emitQuit(): NodeJS.Timeout {
  const timers = vi.spyOn(globalThis, 'setTimeout');
  const event = { preventDefault: vi.fn() };
  let deadline: NodeJS.Timeout | undefined;
  try {
    app.emit('before-quit', event);
    const index = timers.mock.calls.findIndex(([, delay]) => delay === 3_000);
    deadline = index < 0 ? undefined : (timers.mock.results[index]!.value as NodeJS.Timeout);
  } finally {
    timers.mockRestore();
  }
  // Quitting is the app's to finish: Electron must not go on to close it before the core is closed.
  expect(event.preventDefault).toHaveBeenCalled();
  expect(deadline, 'the quit deadline').toBeDefined();
  return deadline!;
}

/** The app's Quit: resolves once it exits, which it does when everything is closed. */
export async function quit(): Promise<void> {
  const earlier = app.exit.mock.calls.length;
  const deadline = emitQuit();
  await expect.poll(() => app.exit.mock.calls.slice(earlier), { timeout: 2_500 }).toEqual([[0]]);
  clearTimeout(deadline);
  running = false;
}

/** For a test that saw the app exit by other means (its quit deadline): nothing is left for afterEach to quit. */
export function markExited(): void {
  running = false;
}

export function panel(): FakeBrowserWindow | undefined {
  return FakeBrowserWindow.all.filter((window) => !window.isDestroyed()).at(-1);
}

type TrayObject = { setContextMenu: Mock; setToolTip: Mock; destroy: Mock };
interface Item {
  label?: string;
  checked?: boolean;
  click?: () => void;
}

export function tray(): TrayObject {
  return vi.mocked(Tray).mock.results.at(-1)!.value as TrayObject;
}

export function menu(): Item[] {
  return (tray().setContextMenu.mock.calls.at(-1)?.[0] as { template: Item[] } | undefined)?.template ?? [];
}

export const labels = (): (string | undefined)[] => menu().map((item) => item.label);

export function click(label: string): void {
  const item = menu().find((entry) => entry.label === label);
  if (!item?.click) throw new Error(`no "${label}" in the menu: ${labels().join(' | ')}`);
  item.click();
}

/** An MCP client's session through the helper's relay: it must find the app's core, never start one. */
export async function relaySession(dataDir: string) {
  const toCore = new PassThrough();
  const fromCore = new PassThrough();
  const startOne = vi.fn();
  const exit = runRelay({
    dataDir,
    startCore: startOne,
    input: toCore,
    output: fromCore,
    log: () => undefined,
    waitMs: 2_000,
  });
  const rpc = rawRpc(fromCore, toCore);
  const hello = await initialize(rpc, 'app-test');
  expect(startOne).not.toHaveBeenCalled();
  const status = async (): Promise<string> => {
    const answer = (await rpc.request('tools/call', { name: 'status', arguments: {} })) as {
      result: { content: { text: string }[] };
    };
    return answer.result.content[0]!.text;
  };
  return { hello, status, end: () => (toCore.end(), exit) };
}

/** Per test: a temp home and Electron ready; after it, the app quit (if still running) and the env and fakes reset. */
export function useTrayApp(): void {
  beforeEach(() => {
    app.whenReady.mockResolvedValue(undefined);
    // The app installs the browsers' native host at every start: into a temp home, never the person's own browsers.
    const home = mkdtempSync(join(scratch, 'home-'));
    process.env['HOME'] = process.env['USERPROFILE'] = home;
    expect(homedir()).toBe(home);
  });

  afterEach(async () => {
    if (running) await quit();
    app.removeAllListeners();
    for (const window of FakeBrowserWindow.all) window.destroy();
    // Key by key: a new object would cut process.env off from the real environment (os.homedir() reads HOME there).
    for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
    Object.assign(process.env, savedEnv);
    vi.clearAllMocks();
  });

  afterAll(async () => {
    await cleanUpDataDirs();
    removeDir(scratch);
  });
}

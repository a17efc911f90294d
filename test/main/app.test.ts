// The tray app from `ready` to Quit, Electron faked and everything else real: the core (its fallback the app's own
// Chromium, made lazily, so no call here needs Electron), the core socket a relay authenticates on, the helper
// launcher, the native host it installs, the tray menu the person clicks, the client configs and settings files, all in
// temp folders (a temp home too).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { type Config, parseCli } from '../../electron/core/config.js';
import type * as CoreModule from '../../electron/core/core.js';
import type { Core, CoreOptions } from '../../electron/core/core.js';
import { helperLauncher } from '../../electron/core/clients/helper-launcher.js';
import { hostManifest, manifestPathIn, profileRoot } from '../../electron/core/pairing/host-manifest.js';
import { hostWrapper } from '../../electron/core/pairing/host-wrapper.js';
import { readControlFile } from '../../electron/core/control/control-file.js';
import { CORE_SOCKET } from '../../electron/core/host/core-address.js';
import { readCoreFile } from '../../electron/core/host/core-file.js';
import { runRelay } from '../../electron/helper/relay.js';
import { cleanUpDataDirs, controlOf, freshDataDir, initialize, rawRpc } from '../host/support.js';
import { FakeBrowserWindow, Notification, Tray, fakeElectron } from './support/fake-electron.js';

vi.mock('electron', () => fakeElectron());
vi.mock('electron-log/main', async () => ({ default: (await import('electron-log/node')).default }));

// The app's own config is the one the person gets: `auto` on the fixed bridge port the extension dials. A test core must
// not take that port (or a real extension on this machine), so it runs as every test core does: fallback only, port 0.
const cores = vi.hoisted(() => [] as { config: Config; options: CoreOptions; core: Core }[]);
vi.mock('../../electron/core/core.js', async (original) => {
  const real = await original<typeof CoreModule>();
  const { parseCli } = await import('../../electron/core/config.js');
  return {
    ...real,
    startCore: async (config: Config, log: (line: string) => void, options: CoreOptions) => {
      const outcome = parseCli(['--browser', 'fallback', '--headless', '--port', '0', '--data-dir', config.dataDir]);
      if (outcome.kind !== 'run') throw new Error('bad test flags');
      const core = await real.startCore(outcome.config, log, options);
      cores.push({ config, options, core });
      return core;
    },
  };
});

const electron = await import('electron');
const app = electron.app as unknown as EventEmitter & Record<'whenReady' | 'exit' | 'getPath', Mock>;
const logger = (await import('electron-log/main')).default;
const { startCore } = await import('../../electron/core/core.js');
const { hostCore } = await import('../../electron/core/host/host-core.js');
const { runApp } = await import('../../electron/main/app.js');

const scratch = mkdtempSync(join(tmpdir(), 'cm-app-'));
logger.transports.file.resolvePathFn = () => join(scratch, 'main.log');
logger.transports.console.level = false;

const savedEnv = { ...process.env };
let running = false;

interface Started {
  dataDir: string;
  userData: string;
}

/** runApp as main.ts calls it, once Electron is ready; resolves when start-up is done (the pairing panel opens last). */
async function startApp({
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
function emitQuit(): NodeJS.Timeout {
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
async function quit(): Promise<void> {
  const earlier = app.exit.mock.calls.length;
  const deadline = emitQuit();
  await expect.poll(() => app.exit.mock.calls.slice(earlier), { timeout: 2_500 }).toEqual([[0]]);
  clearTimeout(deadline);
  running = false;
}

function panel(): FakeBrowserWindow | undefined {
  return FakeBrowserWindow.all.filter((window) => !window.isDestroyed()).at(-1);
}

type TrayObject = { setContextMenu: Mock; setToolTip: Mock; destroy: Mock };
interface Item {
  label?: string;
  checked?: boolean;
  click?: () => void;
}

function tray(): TrayObject {
  return vi.mocked(Tray).mock.results.at(-1)!.value as TrayObject;
}

function menu(): Item[] {
  return (tray().setContextMenu.mock.calls.at(-1)?.[0] as { template: Item[] } | undefined)?.template ?? [];
}

const labels = (): (string | undefined)[] => menu().map((item) => item.label);

function click(label: string): void {
  const item = menu().find((entry) => entry.label === label);
  if (!item?.click) throw new Error(`no "${label}" in the menu: ${labels().join(' | ')}`);
  item.click();
}

/** An MCP client's session through the helper's relay: it must find the app's core, never start one. */
async function relaySession(dataDir: string) {
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
  rmSync(scratch, { recursive: true, force: true });
});

describe('the tray app starting', () => {
  it("starts the core with the app's own Chromium as its fallback, in the data dir the person chose", async () => {
    const { dataDir } = await startApp();
    expect(cores.at(-1)!.config.dataDir).toBe(dataDir);
    const session = await relaySession(dataDir);
    expect(await session.status()).toContain('fallback browser: starts on first use, headed, built-in Chromium');
    expect(await session.end()).toBe(0);
  });

  it('writes the helper launcher at <dataDir>/bin/chrome-mcp-helper, running this executable in helper mode', async () => {
    const { dataDir } = await startApp({ isPackaged: true });
    const path = join(dataDir, 'bin', 'chrome-mcp-helper');
    expect(readFileSync(path, 'utf8')).toBe(
      helperLauncher(dataDir, [process.execPath, '--mcp-helper'], process.platform).text,
    );
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o700);
  });

  it('names the app folder in the launcher when unpackaged (Electron would open its default app without it)', async () => {
    const { dataDir } = await startApp({ isPackaged: false });
    const text = readFileSync(join(dataDir, 'bin', 'chrome-mcp-helper'), 'utf8');
    expect(text).toBe(
      helperLauncher(dataDir, [process.execPath, '/opt/chrome-mcp/app', '--mcp-helper'], process.platform).text,
    );
  });

  it.skipIf(process.platform === 'win32')(
    'installs the native host for the browsers here, running this executable with --native-host; a restart rewrites nothing',
    async () => {
      const home = homedir();
      expect(home.startsWith(scratch), 'a temp home').toBe(true);
      const chromium = profileRoot('chromium', process.platform, home)!;
      mkdirSync(chromium, { recursive: true });
      const { dataDir, userData } = await startApp({ isPackaged: true });
      const wrapper = hostWrapper({
        platform: process.platform,
        dataDir,
        command: [process.execPath, '--native-host'],
      });
      const manifest = manifestPathIn(chromium, process.platform);
      expect(JSON.parse(readFileSync(manifest, 'utf8'))).toEqual(hostManifest(wrapper.path));
      expect(readFileSync(wrapper.path, 'utf8')).toBe(wrapper.text);
      expect(statSync(wrapper.path).mode & 0o777).toBe(0o700);
      // Only browsers with a profile folder: no folders made for the others.
      expect(existsSync(profileRoot('chrome', process.platform, home)!)).toBe(false);

      const written = () =>
        [wrapper.path, manifest].map((path) => ({ ino: statSync(path).ino, mtime: statSync(path).mtimeMs }));
      const before = written();
      await quit();
      panel()!.destroy();
      await startApp({ dataDir, userData });
      expect(written()).toEqual(before);
    },
  );

  it('names the app folder in the native host wrapper when unpackaged', async () => {
    const { dataDir } = await startApp({ isPackaged: false });
    const wrapper = hostWrapper({
      platform: process.platform,
      dataDir,
      command: [process.execPath, '/opt/chrome-mcp/app', '--native-host'],
    });
    expect(readFileSync(wrapper.path, 'utf8')).toBe(wrapper.text);
  });

  it('starts all the same when the native host cannot be installed: the log says why and the tray says so', async () => {
    const dataDir = freshDataDir();
    writeFileSync(join(dataDir, 'native-host'), "a file where the wrapper's folder goes");
    await startApp({ dataDir });
    await expect.poll(labels).toContain('Pairing host not installed: see Open logs');
    expect(readFileSync(join(scratch, 'main.log'), 'utf8')).toMatch(/could not install the native host .*native-host/);
    const session = await relaySession(dataDir);
    expect(await session.end()).toBe(0);
  });

  it('hosts the core for MCP clients: core.json names its socket, which takes an authenticated relay', async () => {
    const { dataDir } = await startApp();
    const file = readCoreFile(dataDir);
    expect(file).toMatchObject({ socket: join(dataDir, CORE_SOCKET), pid: process.pid });
    const session = await relaySession(dataDir);
    expect(session.hello).toMatchObject({ result: { serverInfo: { name: expect.any(String) } } });
    expect(await session.end()).toBe(0);
  });

  it("opens the pairing screen for a person's launch with nothing paired", async () => {
    await startApp();
    expect(FakeBrowserWindow.all.filter((window) => !window.isDestroyed())).toHaveLength(1);
    expect(panel()!.options['webPreferences']).toMatchObject({ preload: join(scratch, 'build', 'preload.js') });
  });
});

describe('the tray menu', () => {
  it('is built from the menu model and follows the core: a control stop shows Resume, Resume from the menu stops it', async () => {
    const { dataDir } = await startApp();
    expect(labels()).toEqual(
      expect.arrayContaining([
        'Extension not paired',
        'Pair extension…',
        'Stop agent',
        'Connect Cursor',
        'Quit Chrome MCP',
      ]),
    );
    expect(tray().setToolTip).toHaveBeenLastCalledWith('Chrome MCP: Extension not paired');

    // The panel's stop arrives through the control API, not the menu: the activity event must reach the tray.
    await controlOf(dataDir).call('stop', { message: 'stopped from the panel' });
    await expect.poll(labels).toContain('Resume agent');
    expect(labels()).toContain('Agent stopped');
    expect(tray().setToolTip).toHaveBeenLastCalledWith('Chrome MCP: Agent stopped');

    click('Resume agent');
    await expect.poll(labels).toContain('Stop agent');
    expect((await controlOf(dataDir).call('status')).stopped).toBeNull();
  });

  it('names the MCP clients connected through the core socket, and drops one whose session ended', async () => {
    const { dataDir } = await startApp();
    expect(labels()).toContain('No MCP client connected');
    const session = await relaySession(dataDir);
    await expect.poll(labels).toContain('1 client connected: app-test');
    expect(await session.end()).toBe(0);
    await expect.poll(labels).toContain('No MCP client connected');
  });

  it('opens the panel on the screen an item names', async () => {
    await startApp();
    const window = panel()!;
    const hash = vi.spyOn(window.webContents, 'executeJavaScript');
    click('Allowed sites…');
    expect(hash).toHaveBeenLastCalledWith('location.hash = "screen=sites"');
    window.destroy();
    click('Open panel');
    expect(panel()!.webContents.loads[0]!.url).toBe('app://panel/index.html');
  });

  it('keeps "Show the app\'s browser windows" across a restart, and the app\'s browser follows it', async () => {
    const { dataDir, userData } = await startApp();
    expect(menu().find((item) => item.label === "Show the app's browser windows")).toMatchObject({ checked: true });
    click("Show the app's browser windows");
    await expect
      .poll(() => menu().find((item) => item.label === "Show the app's browser windows")?.checked)
      .toBe(false);
    const session = await relaySession(dataDir);
    expect(await session.status()).toContain('starts on first use, headless');
    await session.end();
    await quit();
    // Electron closes the windows on exit; the fake leaves that to the test.
    panel()!.destroy();

    await startApp({ dataDir, userData });
    expect(menu().find((item) => item.label === "Show the app's browser windows")).toMatchObject({ checked: false });
  });

  it('starts with the default settings when the settings file is corrupt', async () => {
    const userData = mkdtempSync(join(scratch, 'user-'));
    writeFileSync(join(userData, 'app-settings.json'), '{"showBrowser": tru');
    await startApp({ userData });
    expect(menu().find((item) => item.label === "Show the app's browser windows")).toMatchObject({ checked: true });
  });

  it('connects a client to the launcher and tells the person; says so when it already is; reports a refused config', async () => {
    const home = mkdtempSync(join(scratch, 'home-'));
    process.env['HOME'] = home;
    // Never the person's own client config.
    expect(homedir()).toBe(home);
    const { dataDir } = await startApp();
    const launcher = join(dataDir, 'bin', 'chrome-mcp-helper');
    const config = join(home, '.cursor', 'mcp.json');
    const told = (): unknown[] => vi.mocked(Notification).mock.calls.map((call) => call[0]);

    // Connecting may run a client's own command, so the notification comes once that is done.
    click('Connect Cursor');
    await expect
      .poll(told)
      .toContainEqual({ title: 'Cursor connected', body: `Restart Cursor to use Chrome MCP (${config}).` });
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({
      mcpServers: { 'chrome-mcp': { command: launcher, args: [] } },
    });

    click('Connect Cursor');
    await expect.poll(told).toContainEqual({
      title: 'Cursor is already connected',
      body: `Its config (${config}) already runs Chrome MCP.`,
    });

    writeFileSync(config, '{ not json');
    click('Connect Cursor');
    await expect
      .poll(told)
      .toContainEqual({ title: 'Could not connect Cursor', body: expect.stringContaining('nothing was changed') });
    expect(readFileSync(config, 'utf8')).toBe('{ not json');
  });
});

describe('a second launch', () => {
  it("focuses the panel for a person, and stays quiet for the helper's background launch", async () => {
    await startApp();
    const window = panel()!;
    window.focused = false;
    app.emit('second-instance', {}, ['/opt/chrome-mcp/chrome-mcp', '--background']);
    expect(window.focused).toBe(false);
    app.emit('second-instance', {}, ['/opt/chrome-mcp/chrome-mcp']);
    expect(window.focused).toBe(true);

    window.destroy();
    app.emit('second-instance', {}, ['/opt/chrome-mcp/chrome-mcp']);
    expect(panel()).toBeDefined();
    expect(panel()).not.toBe(window);
  });
});

describe('Quit', () => {
  it('closes the tray, the host and the core, then exits: core.json, core.sock and control.json are gone', async () => {
    const { dataDir } = await startApp();
    expect(readControlFile(dataDir)).toBeDefined();
    const session = await relaySession(dataDir);
    await quit();
    expect(app.exit).toHaveBeenCalledTimes(1);
    expect(tray().destroy).toHaveBeenCalled();
    expect(existsSync(join(dataDir, 'core.json'))).toBe(false);
    expect(existsSync(join(dataDir, CORE_SOCKET))).toBe(false);
    expect(readControlFile(dataDir)).toBeUndefined();
    // The relay's session ended with the core.
    expect(await session.end()).toBe(1);
  });

  it('exits at the deadline when the core does not close, and a second Quit does not start another close', async () => {
    const { dataDir } = await startApp();
    const core = cores.at(-1)!.core;
    const close = core.close.bind(core);
    const hung = vi.fn(() => new Promise<void>(() => undefined));
    core.close = hung;
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      emitQuit();
      // The host closes before the core: clients are let go at once, even when the core then hangs.
      await expect.poll(() => existsSync(join(dataDir, 'core.json'))).toBe(false);
      await expect.poll(() => hung.mock.calls.length).toBe(1);
      expect(app.exit).not.toHaveBeenCalled();
      app.emit('before-quit', { preventDefault: vi.fn() });
      vi.advanceTimersByTime(3_000);
      expect(app.exit).toHaveBeenCalledWith(0);
      expect(hung).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
      running = false;
      core.close = close;
      await close();
    }
  });
});

describe('start-up that cannot go on', () => {
  it('refuses, telling the person, when another core serves the data dir, and leaves that core and its files alone', async () => {
    const dataDir = freshDataDir();
    const serving = await startCore((parseCli(['--data-dir', dataDir]) as { config: Config }).config, () => undefined);
    const host = await hostCore({ core: serving, dataDir, log: () => undefined });
    const before = { core: readCoreFile(dataDir), control: readControlFile(dataDir) };
    const started = cores.length;
    try {
      process.env['CHROME_MCP_DATA'] = dataDir;
      runApp({
        mainDir: scratch,
        appPath: '/opt/chrome-mcp/app',
        resourcesPath: '/opt/chrome-mcp/resources',
        isPackaged: true,
      });
      await expect.poll(() => app.exit.mock.calls, { timeout: 10_000 }).toContainEqual([1]);
      expect(electron.dialog.showErrorBox).toHaveBeenCalledWith(
        'Chrome MCP',
        expect.stringContaining(`Another Chrome MCP already serves ${dataDir}`),
      );
      expect(electron.dialog.showErrorBox).toHaveBeenCalledTimes(1);
      expect(Tray).not.toHaveBeenCalled();
      expect(cores, 'a refused app starts no core').toHaveLength(started);
      // The serving core's panel and clients still find it: the refused app wrote over none of its files.
      expect({ core: readCoreFile(dataDir), control: readControlFile(dataDir) }).toEqual(before);
      expect((await controlOf(dataDir).call('status')).stopped).toBeNull();
    } finally {
      await host.close();
      await serving.close();
    }
  });

  it('names a broken policy file, and leaves no core.json behind for relays to find', async () => {
    const dataDir = freshDataDir();
    writeFileSync(join(dataDir, 'policy.json'), '{"sites": [');
    process.env['CHROME_MCP_DATA'] = dataDir;
    runApp({
      mainDir: scratch,
      appPath: '/opt/chrome-mcp/app',
      resourcesPath: '/opt/chrome-mcp/resources',
      isPackaged: true,
    });
    await expect.poll(() => app.exit.mock.calls, { timeout: 10_000 }).toContainEqual([1]);
    expect(electron.dialog.showErrorBox).toHaveBeenCalledWith(
      'Chrome MCP',
      expect.stringMatching(new RegExp(`^${join(dataDir, 'policy.json')}: .*Fix the file`, 's')),
    );
    expect(readCoreFile(dataDir)).toBeUndefined();
    expect(existsSync(join(dataDir, CORE_SOCKET))).toBe(false);
  });

  it('tells the person and exits when the core cannot start at all', async () => {
    const notAFolder = join(scratch, 'not-a-folder');
    writeFileSync(notAFolder, '');
    process.env['CHROME_MCP_DATA'] = notAFolder;
    runApp({
      mainDir: scratch,
      appPath: '/opt/chrome-mcp/app',
      resourcesPath: '/opt/chrome-mcp/resources',
      isPackaged: true,
    });
    await expect.poll(() => app.exit.mock.calls, { timeout: 10_000 }).toContainEqual([1]);
    expect(electron.dialog.showErrorBox).toHaveBeenCalledWith(
      'Chrome MCP',
      expect.stringMatching(/^Chrome MCP could not start: /),
    );
    expect(Tray).not.toHaveBeenCalled();
  });
});

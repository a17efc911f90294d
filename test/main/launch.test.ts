// Which process starts, Electron faked: --mcp-helper runs the stdio relay and nothing else (no window, no tray, no
// single-instance lock, no panel scheme), starting the app detached without the flag; the tray app holds one instance.
import type { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, type Mock, vi } from 'vitest';
import { FakeBrowserWindow, Tray, fakeElectron } from './support/fake-electron.js';

vi.mock('electron', () => fakeElectron());
vi.mock('electron-log/main', async () => ({ default: (await import('electron-log/node')).default }));
const relay = vi.hoisted(() => ({ runRelay: vi.fn() }));
vi.mock('../../electron/helper/relay.js', () => relay);
const spawned = vi.hoisted(() => ({ spawn: vi.fn() }));
vi.mock('node:child_process', async (original) => ({ ...(await original<object>()), spawn: spawned.spawn }));

const electron = await import('electron');
const app = electron.app as unknown as EventEmitter &
  Record<'requestSingleInstanceLock' | 'quit' | 'exit' | 'whenReady', Mock>;
const { main } = await import('../../electron/main/launch.js');
const { appCommand, appEnvironment } = await import('../../electron/main/helper-mode.js');
const { launchedByPerson, setupSingleInstance } = await import('../../electron/main/single-instance.js');

const consoleMethods = { ...console };
afterEach(() => {
  Object.assign(console, consoleMethods);
  vi.clearAllMocks();
});

describe('--mcp-helper', () => {
  it('runs the relay on stdio and exits with its code, making no window or tray', async () => {
    relay.runRelay.mockImplementation(async (options: { startCore: () => void }) => {
      options.startCore();
      return 3;
    });
    spawned.spawn.mockReturnValue({ on: vi.fn(), unref: vi.fn() });
    const windows = FakeBrowserWindow.all.length;
    await main(['/opt/electron', '/work/app', '--mcp-helper']);

    expect(relay.runRelay).toHaveBeenCalledTimes(1);
    const options = relay.runRelay.mock.calls[0]![0];
    expect(options).toMatchObject({ input: process.stdin, output: process.stdout, waitMs: 30_000 });
    expect(options.dataDir).toEqual(expect.any(String));
    expect(app.exit).toHaveBeenCalledWith(3);
    expect(FakeBrowserWindow.all.length).toBe(windows);
    expect(Tray).not.toHaveBeenCalled();
    expect(app.requestSingleInstanceLock).not.toHaveBeenCalled();
    expect(electron.protocol.registerSchemesAsPrivileged).not.toHaveBeenCalled();
    expect(app.whenReady).not.toHaveBeenCalled();

    // startCore relaunches the app itself, detached, without the helper flag and never as Node.
    const [program, args, spawnOptions] = spawned.spawn.mock.calls[0]!;
    expect(program).toBe(process.execPath);
    expect(args).toEqual(['/app', '--background']);
    expect(args).not.toContain('--mcp-helper');
    expect(spawnOptions).toMatchObject({ detached: true, stdio: 'ignore' });
    expect(spawnOptions.env.ELECTRON_RUN_AS_NODE).toBeUndefined();
  });

  it('keeps stdout for MCP: console output goes to stderr', async () => {
    relay.runRelay.mockResolvedValue(0);
    const stdout = vi.spyOn(process.stdout, 'write');
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await main(['/opt/electron', '--mcp-helper']);
    console.log('chatty dependency');
    expect(stdout).not.toHaveBeenCalledWith(expect.stringContaining('chatty dependency'));
    expect(stderr).toHaveBeenCalledWith(expect.stringContaining('chatty dependency'));
    stdout.mockRestore();
    stderr.mockRestore();
  });

  it('names the app folder only when unpackaged, and strips ELECTRON_RUN_AS_NODE', () => {
    expect(appCommand('/Applications/Chrome MCP.app/Contents/MacOS/Chrome MCP', '/x/app.asar', true)).toEqual([
      '/Applications/Chrome MCP.app/Contents/MacOS/Chrome MCP',
    ]);
    expect(appCommand('/node_modules/electron/dist/electron', '/work/main', false)).toEqual([
      '/node_modules/electron/dist/electron',
      '/work/main',
    ]);
    expect(appEnvironment({ ELECTRON_RUN_AS_NODE: '1', HOME: '/h' })).toEqual({ HOME: '/h' });
  });
});

describe('single instance', () => {
  it('a second launch quits at once, before making anything', async () => {
    app.requestSingleInstanceLock.mockReturnValueOnce(false);
    await main(['/opt/electron', '/work/app']);
    expect(app.quit).toHaveBeenCalled();
    expect(app.whenReady).not.toHaveBeenCalled();
    expect(Tray).not.toHaveBeenCalled();
  });

  it("the first instance hears later launches and shows its panel for a person's launch only", () => {
    const onSecond = vi.fn();
    expect(setupSingleInstance(onSecond)).toBe(true);
    app.emit('second-instance', {}, ['/opt/app']);
    expect(onSecond).toHaveBeenCalledWith(['/opt/app']);
    expect(launchedByPerson(['/opt/app'])).toBe(true);
    expect(launchedByPerson(['/opt/app', '--background'])).toBe(false);
  });

  it('the tray app takes the lock, registers the panel scheme and waits for ready', async () => {
    await main(['/opt/electron', '/work/app']);
    expect(app.requestSingleInstanceLock).toHaveBeenCalled();
    expect(electron.protocol.registerSchemesAsPrivileged).toHaveBeenCalled();
    expect(app.whenReady).toHaveBeenCalled();
    expect(app.listenerCount('window-all-closed')).toBeGreaterThan(0);
  });
});

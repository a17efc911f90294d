// The tray app's Quit and the start-ups it refuses, Electron faked and everything else real (see support/tray-app.ts).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as electron from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { type Config, parseCli } from '../../electron/core/config.js';
import { startCore } from '../../electron/core/core.js';
import { readControlFile } from '../../electron/core/control/control-file.js';
import { CORE_SOCKET } from '../../electron/core/host/core-address.js';
import { hostCore } from '../../electron/core/host/host-core.js';
import { readCoreFile } from '../../electron/core/host/core-file.js';
import { runApp } from '../../electron/main/app.js';
import { controlOf, freshDataDir } from '../host/support.js';
import { Tray } from './support/fake-electron.js';
import { cores } from './support/fake-core.js';
import {
  app,
  emitQuit,
  markExited,
  quit,
  relaySession,
  scratch,
  startApp,
  tray,
  useTrayApp,
} from './support/tray-app.js';

// Each factory imports its fake itself: it runs when a module first imports the mocked one, maybe before our imports.
vi.mock('electron', async () => (await import('./support/fake-electron.js')).fakeElectron());
vi.mock('electron-log/main', async () => ({ default: (await import('electron-log/node')).default }));
vi.mock('../../electron/core/core.js', async (original) => (await import('./support/fake-core.js')).mockCore(original));

useTrayApp();

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
      markExited();
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

// The tray app starting, Electron faked and all else real (support/tray-app.ts): core, launcher, native host, panel.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { helperLauncher } from '../../electron/core/clients/helper-launcher.js';
import { hostManifest, manifestPathIn, profileRoot } from '../../electron/core/pairing/host-manifest.js';
import { hostWrapper } from '../../electron/core/pairing/host-wrapper.js';
import { CORE_SOCKET } from '../../electron/core/host/core-address.js';
import { readCoreFile } from '../../electron/core/host/core-file.js';
import { freshDataDir } from '../host/support.js';
import { FakeBrowserWindow } from './support/fake-electron.js';
import { cores } from './support/fake-core.js';
import { labels, panel, quit, relaySession, scratch, startApp, useTrayApp } from './support/tray-app.js';

// Each factory imports its fake itself: it runs when a module first imports the mocked one, maybe before our imports.
vi.mock('electron', async () => (await import('./support/fake-electron.js')).fakeElectron());
vi.mock('electron-log/main', async () => ({ default: (await import('electron-log/node')).default }));
vi.mock('../../electron/core/core.js', async (original) => (await import('./support/fake-core.js')).mockCore(original));

useTrayApp();

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

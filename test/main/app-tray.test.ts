// The tray app's menu and a second launch, Electron faked and everything else real (see support/tray-app.ts).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { controlOf } from '../host/support.js';
import { Notification } from './support/fake-electron.js';
import {
  app,
  click,
  labels,
  menu,
  panel,
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

// The panel window and its origin, Electron faked: the secure webPreferences with the preload, every way out refused,
// one window reused; app://panel serves the built folder only, with the CSP.
import { describe, expect, it, vi } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeBrowserWindow, fakeElectron } from './support/fake-electron.js';

vi.mock('electron', () => fakeElectron());

const electron = await import('electron');
const { createPanelWindow, showPanel, routed } = await import('../../electron/main/windows.js');
const { SECURE_WEB_PREFERENCES, secureWebPreferences } = await import('../../electron/main/secure-prefs.js');
const protocolModule = await import('../../electron/main/panel-protocol.js');
const { PANEL_CSP, PANEL_URL, findPanelRoot, isPanelUrl, panelFile, registerPanelScheme, setupPanelProtocol } =
  protocolModule;

describe('panel window', () => {
  it('gets contextIsolation, sandbox, no node integration, webSecurity, and the preload', () => {
    const window = createPanelWindow({
      preload: '/app/.vite/build/preload.js',
      url: PANEL_URL,
    }) as unknown as FakeBrowserWindow;
    expect(window.options['webPreferences']).toEqual({
      ...SECURE_WEB_PREFERENCES,
      preload: '/app/.vite/build/preload.js',
    });
    expect(window.options['webPreferences']).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    });
    expect(window.webContents.loads[0]?.url).toBe('app://panel/index.html');
  });

  it('denies navigation, redirects, webviews and window.open', () => {
    const window = createPanelWindow({ preload: '/p.js', url: PANEL_URL }) as unknown as FakeBrowserWindow;
    for (const name of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const event = { preventDefault: vi.fn() };
      window.webContents.emit(name, event, 'https://evil.example/');
      expect(event.preventDefault, name).toHaveBeenCalled();
    }
    expect(window.webContents.openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(window.webContents.openHandler!({ url: 'app://panel/index.html' })).toEqual({ action: 'deny' });
  });

  it('never lets a window loosen the secure preferences', () => {
    const loosened = secureWebPreferences({
      preload: '/p.js',
      ...({ sandbox: false, contextIsolation: false, nodeIntegration: true } as object),
    });
    expect(loosened).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false });
  });

  it('shows one panel, reusing it, with the screen in its hash', () => {
    const before = FakeBrowserWindow.all.length;
    const first = showPanel({ preload: '/p.js', url: PANEL_URL }, 'screen=sites') as unknown as FakeBrowserWindow;
    expect(first.webContents.loads[0]?.url).toBe('app://panel/index.html#screen=sites');
    expect(showPanel({ preload: '/p.js', url: PANEL_URL })).toBe(first);
    expect(FakeBrowserWindow.all.length).toBe(before + 1);
    first.destroy();
    expect(showPanel({ preload: '/p.js', url: PANEL_URL })).not.toBe(first);
    expect(routed('http://localhost:5173/', 'screen=needs')).toBe('http://localhost:5173/#screen=needs');
  });
});

describe('app://panel', () => {
  const root = mkdtempSync(join(tmpdir(), 'panel-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html>');
  writeFileSync(join(root, 'assets', 'app.js'), 'void 0');

  it('registers a standard, secure scheme', () => {
    registerPanelScheme();
    expect(electron.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
  });

  it('maps URLs into the built folder and nothing outside it', () => {
    expect(panelFile(root, 'app://panel/')).toBe(join(root, 'index.html'));
    expect(panelFile(root, 'app://panel/assets/app.js?v=1')).toBe(join(root, 'assets', 'app.js'));
    // The URL parser resolves dot segments itself: these stay inside the folder.
    expect(panelFile(root, 'app://panel/../secret')).toBe(join(root, 'secret'));
    expect(panelFile(root, 'app://panel/%2e%2e/secret')).toBe(join(root, 'secret'));
    // An encoded slash survives the parser and is decoded here: refused.
    for (const url of [
      'app://panel/assets/%2e%2e%2f%2e%2e%2fsecret',
      'app://panel/..%5csecret',
      'app://panel/a%00b',
      'app://other/index.html',
      'https://panel/index.html',
      'app://panel/%zz',
    ])
      expect(panelFile(root, url), url).toBeUndefined();
  });

  it('serves a file with the CSP and refuses what is not there', async () => {
    setupPanelProtocol(root);
    const handler = vi.mocked(electron.protocol.handle).mock.calls.at(-1)![1];
    vi.mocked(electron.net.fetch).mockResolvedValue(new Response('void 0'));
    const served = await handler(new Request('app://panel/assets/app.js') as never);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(served.headers.get('content-security-policy')).toBe(PANEL_CSP);
    expect((await handler(new Request('app://panel/missing.js') as never)).status).toBe(404);
    expect((await handler(new Request('app://panel/../../etc/passwd') as never)).status).toBe(404);
  });

  it("has a CSP that allows only the panel's own scripts and no connections", () => {
    expect(PANEL_CSP).toContain("default-src 'none'");
    expect(PANEL_CSP).toContain("script-src 'self'");
    expect(PANEL_CSP).toContain("connect-src 'none'");
    expect(PANEL_CSP).not.toMatch(/unsafe-(inline|eval)/);
  });

  it('finds the built panel and recognises its origin', () => {
    expect(findPanelRoot(['/nowhere', root])).toBe(root);
    expect(findPanelRoot(['/nowhere'])).toBeUndefined();
    expect(isPanelUrl('app://panel/index.html#x')).toBe(true);
    expect(isPanelUrl('app://panelx/index.html')).toBe(false);
    expect(isPanelUrl(undefined)).toBe(false);
  });
});

// The panel window: one at a time, the secure webPreferences, the app's preload, and no way out — navigation, new
// windows and <webview> are all refused, so the page that holds the control API is only ever the panel.
import { BrowserWindow, type WebContents } from 'electron';
import { secureWebPreferences } from './secure-prefs.js';

export interface PanelWindowOptions {
  /** The built preload script (absolute path). */
  preload: string;
  /** The panel's URL: app://panel/index.html, or the Vite dev server under `electron-forge start`. */
  url: string;
  /** Run when the panel could not load, with why: the tray shows it in the log. */
  onLoadError?: (message: string) => void;
}

let panel: BrowserWindow | undefined;

/**
 * Closes every way a page in `contents` could leave: navigation (a link, a form, `location =`), `window.open`, and
 * attaching a <webview>. The panel never navigates after its first load; in-page hash routes do not count as navigation.
 */
export function lockNavigation(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

export function createPanelWindow({ preload, url, onLoadError }: PanelWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 980,
    height: 720,
    minWidth: 640,
    minHeight: 480,
    show: false,
    title: 'Chrome MCP',
    webPreferences: secureWebPreferences({ preload }),
  });
  lockNavigation(window.webContents);
  window.once('ready-to-show', () => window.show());
  window.loadURL(url).catch((error: unknown) => onLoadError?.(error instanceof Error ? error.message : String(error)));
  return window;
}

/** Shows the panel, making it if it is not open; `route` is an in-page hash route such as `policy`. */
export function showPanel(options: PanelWindowOptions, route?: string): BrowserWindow {
  if (!panel || panel.isDestroyed()) {
    panel = createPanelWindow({ ...options, url: routed(options.url, route) });
    panel.on('closed', () => {
      panel = undefined;
    });
    return panel;
  }
  if (route !== undefined)
    void panel.webContents.executeJavaScript(`location.hash = ${JSON.stringify(route)}`).catch(() => undefined);
  if (panel.isMinimized()) panel.restore();
  panel.show();
  panel.focus();
  return panel;
}

/** The panel window if one is open (for sending it events). */
export function currentPanel(): BrowserWindow | undefined {
  return panel && !panel.isDestroyed() ? panel : undefined;
}

export function routed(url: string, route: string | undefined): string {
  if (route === undefined) return url;
  const base = new URL(url);
  base.hash = route;
  return base.href;
}

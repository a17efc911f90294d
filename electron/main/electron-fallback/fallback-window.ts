// A tab of the app's own browser: a BrowserWindow in its own persistent partition (never the panel's session, never
// the person's Chrome profile), the app's secure webPreferences and no preload, so a page gets nothing from the app.
import { BrowserWindow, session, type Session } from 'electron';
import { secureWebPreferences } from '../secure-prefs.js';

export const FALLBACK_PARTITION = 'persist:chrome-mcp-fallback';

export function fallbackSession(): Session {
  return session.fromPartition(FALLBACK_PARTITION);
}

/** Created hidden; the host shows it (or not) by the person's setting once it knows whether it takes focus. */
export function openFallbackWindow(): BrowserWindow {
  return new BrowserWindow({
    show: false,
    width: 1280,
    height: 800,
    title: 'Chrome MCP browser',
    // A hidden tab must keep running timers and painting: the engine waits on pages and screenshots them.
    webPreferences: secureWebPreferences({ partition: FALLBACK_PARTITION, backgroundThrottling: false }),
  });
}

/**
 * The partition answers no permission prompt (camera, location, notifications…): nobody is there to judge one, and the
 * agent must not be granted one by default.
 */
export function lockDownFallbackSession(partition: Session): void {
  partition.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  partition.setPermissionCheckHandler(() => false);
}

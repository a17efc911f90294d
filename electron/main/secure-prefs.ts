// The webPreferences every window of the app gets, the panel and the fallback browser's tabs alike: Electron's secure
// defaults stated outright (a future default change or a stray option must not loosen them).
import type { WebPreferences } from 'electron';

export const SECURE_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  experimentalFeatures: false,
  // DevTools in a fallback tab would take its debugger away from the engine (canceled_by_user).
  devTools: false,
} as const satisfies WebPreferences;

/** The secure set plus what a window adds (its preload, its partition); `extra` can never turn a secure one off. */
export function secureWebPreferences(
  extra: Pick<WebPreferences, 'preload' | 'partition' | 'backgroundThrottling'> = {},
): WebPreferences {
  return { ...extra, ...SECURE_WEB_PREFERENCES };
}

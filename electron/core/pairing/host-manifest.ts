// Where each Chromium-family browser looks for native-messaging host manifests, and what ours says.
import { posix, win32 } from 'node:path';
import { EXTENSION_ORIGIN, NATIVE_HOST_NAME } from '../../../shared/protocol/extension-id.js';

/** The manifest file is named after the host name the extension calls (`chrome.runtime.sendNativeMessage`). */
export const MANIFEST_FILE = `${NATIVE_HOST_NAME}.json`;

/** Exact origins, no wildcards (Chrome allows none): only an extension with our key's id may start the host. */
export const ALLOWED_ORIGINS: readonly string[] = [`${EXTENSION_ORIGIN}/`];

export const BROWSERS = ['chrome', 'chromium', 'edge', 'brave'] as const;
export type BrowserName = (typeof BROWSERS)[number];

export interface HostManifest {
  name: string;
  description: string;
  path: string;
  type: 'stdio';
  allowed_origins: string[];
}

export function hostManifest(wrapperPath: string): HostManifest {
  return {
    name: NATIVE_HOST_NAME,
    description: 'Chrome MCP: hands the Chrome MCP extension its pairing secret and the bridge port.',
    path: wrapperPath,
    type: 'stdio',
    allowed_origins: [...ALLOWED_ORIGINS],
  };
}

/** Each browser's user-data root under the home folder (Linux, macOS): its NativeMessagingHosts/ sits inside. */
const PROFILE_ROOTS: Record<'linux' | 'darwin', Record<BrowserName, string[]>> = {
  linux: {
    chrome: ['.config', 'google-chrome'],
    chromium: ['.config', 'chromium'],
    edge: ['.config', 'microsoft-edge'],
    brave: ['.config', 'BraveSoftware', 'Brave-Browser'],
  },
  darwin: {
    chrome: ['Library', 'Application Support', 'Google', 'Chrome'],
    chromium: ['Library', 'Application Support', 'Chromium'],
    edge: ['Library', 'Application Support', 'Microsoft Edge'],
    brave: ['Library', 'Application Support', 'BraveSoftware', 'Brave-Browser'],
  },
};

/** The browser's per-user profile root; undefined on Windows, where the registry names the manifest instead. */
export function profileRoot(browser: BrowserName, platform: NodeJS.Platform, home: string): string | undefined {
  if (platform === 'win32') return undefined;
  // Every other Unix build of Chrome (the BSDs) follows the Linux layout.
  return posix.join(home, ...PROFILE_ROOTS[platform === 'darwin' ? 'darwin' : 'linux'][browser]);
}

/** Where the manifest goes for a browser data dir (a profile root, or a custom --user-data-dir). */
export function manifestPathIn(browserDataDir: string, platform: NodeJS.Platform): string {
  return (platform === 'win32' ? win32 : posix).join(browserDataDir, 'NativeMessagingHosts', MANIFEST_FILE);
}

/** Windows: one manifest beside the wrapper, which every browser's registry key names. */
export function windowsManifestPath(dataDir: string): string {
  return win32.join(dataDir, 'native-host', MANIFEST_FILE);
}

/** Windows: the HKCU key whose default value is the manifest's path. */
export const REGISTRY_KEYS: Record<BrowserName, string> = {
  chrome: `HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\${NATIVE_HOST_NAME}`,
  chromium: `HKCU\\Software\\Chromium\\NativeMessagingHosts\\${NATIVE_HOST_NAME}`,
  edge: `HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\${NATIVE_HOST_NAME}`,
  brave: `HKCU\\Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts\\${NATIVE_HOST_NAME}`,
};

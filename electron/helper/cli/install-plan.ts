// What installing the native host does (`install-native-host`, and the app at each start), as a list of steps: planned
// without touching anything (so the Windows registry commands can be checked on any machine) and then applied.
import { posix, win32 } from 'node:path';
import {
  BROWSERS,
  type BrowserName,
  hostManifest,
  manifestPathIn,
  profileRoot,
  REGISTRY_KEYS,
  windowsManifestPath,
} from '../../core/pairing/host-manifest.js';
import { type HostProgram, hostWrapper } from '../../core/pairing/host-wrapper.js';

export type InstallStep =
  | { kind: 'private-dir'; path: string }
  | { kind: 'write'; path: string; text: string; mode: number }
  | { kind: 'remove'; path: string }
  /** `optional`: a failure is not an error (deleting a registry key that is not there). */
  | { kind: 'command'; file: string; args: string[]; optional?: boolean };

/** `command` (or the CLI's node and cli): what the wrapper runs, see hostWrapper. */
export type InstallRequest = HostProgram & {
  platform: NodeJS.Platform;
  home: string;
  dataDir: string;
  browsers: readonly BrowserName[];
  /** A custom browser profile: the manifest goes only into its NativeMessagingHosts/. */
  browserDataDir?: string;
  remove: boolean;
};

/** Where the manifest files go: the browser data dir's, each browser's (Linux, macOS), or one beside the wrapper (Windows). */
function manifestPaths(request: InstallRequest): string[] {
  const { platform, home, dataDir, browsers, browserDataDir } = request;
  if (browserDataDir) return [manifestPathIn(browserDataDir, platform)];
  if (platform === 'win32') return [windowsManifestPath(dataDir)];
  return browsers.map((browser) => manifestPathIn(profileRoot(browser, platform, home)!, platform));
}

/** Windows finds hosts through HKCU keys whose default value is the manifest path. */
function registrySteps(request: InstallRequest, manifestPath: string): InstallStep[] {
  if (request.platform !== 'win32' || request.browserDataDir) return [];
  return request.browsers.map((browser) =>
    request.remove
      ? { kind: 'command', file: 'reg', args: ['delete', REGISTRY_KEYS[browser], '/f'], optional: true }
      : {
          kind: 'command',
          file: 'reg',
          args: ['add', REGISTRY_KEYS[browser], '/ve', '/t', 'REG_SZ', '/d', manifestPath, '/f'],
        },
  );
}

export function planInstall(request: InstallRequest): InstallStep[] {
  const wrapper = hostWrapper(request);
  const manifests = manifestPaths(request);
  const registry = registrySteps(request, manifests[0]!);
  if (request.remove) {
    // The wrapper (and on Windows the one manifest) serves every browser: it goes only when they all do.
    const allGone = !request.browserDataDir && BROWSERS.every((browser) => request.browsers.includes(browser));
    const shared = request.platform === 'win32' && !request.browserDataDir ? manifests : [];
    const own = manifests.filter((path) => !shared.includes(path));
    const files = [...own, ...(allGone ? [...shared, wrapper.path] : [])];
    return [...registry, ...files.map((path): InstallStep => ({ kind: 'remove', path }))];
  }
  const manifestText = `${JSON.stringify(hostManifest(wrapper.path), null, 2)}\n`;
  const dir = (request.platform === 'win32' ? win32 : posix).dirname;
  return [
    { kind: 'private-dir', path: request.dataDir },
    { kind: 'private-dir', path: dir(wrapper.path) },
    // Executable by this user only: the browser runs it as this user.
    { kind: 'write', path: wrapper.path, text: wrapper.text, mode: 0o700 },
    // Readable by all: a manifest holds no secret, and the browser must read it.
    ...manifests.map((path): InstallStep => ({ kind: 'write', path, text: manifestText, mode: 0o644 })),
    ...registry,
  ];
}

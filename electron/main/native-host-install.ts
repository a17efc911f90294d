// The app keeps the pairing host installed: at each start, the wrapper in the data dir and the manifests of the browsers
// here name this binary in --native-host mode, so the extension fetches its secret with no node or CLI on the machine.
import { homedir } from 'node:os';
import { applySteps, browsersHere } from '../helper/cli/install-native-host.js';
import { planInstall } from '../helper/cli/install-plan.js';
import type { Log } from '../core/log.js';
import { type HostCommand, NATIVE_HOST_FLAG } from '../core/pairing/host-wrapper.js';

export interface NativeHostInstall {
  dataDir: string;
  /** How to start this app (helper-mode.ts's appCommand); the flag is added here. */
  command: HostCommand;
  log: Log;
  platform?: NodeJS.Platform;
  home?: string;
}

/**
 * Installs, rewriting only what changed (a start with nothing moved writes nothing); false when it failed. Never throws:
 * without the host the person can still pair with a code, so a failure is logged and the tray says so.
 */
export function installNativeHost({
  dataDir,
  command,
  log,
  platform = process.platform,
  home = homedir(),
}: NativeHostInstall): boolean {
  try {
    const steps = planInstall({
      platform,
      home,
      dataDir,
      command: [...command, NATIVE_HOST_FLAG],
      browsers: browsersHere(platform, home),
      remove: false,
    });
    const changed = applySteps(steps).filter((line) => !line.startsWith('unchanged'));
    if (changed.length) log(`native host: ${changed.join('; ')}`);
    return true;
  } catch (error) {
    log(
      `could not install the native host (the extension cannot fetch its pairing secret by itself; pair with a code): ${error instanceof Error ? error.message : String(error)}`,
    );
    return false;
  }
}

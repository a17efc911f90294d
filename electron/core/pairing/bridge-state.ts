// `<data-dir>/bridge.json`: the running core's pid, bridge port and extension link state, for the native host
// (which port to hand out) and `doctor` (is a core running, is the extension connected, was it refused as another
// wire version).
import { join } from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, readPrivateJson, removeFile, writeFileAtomic } from './private-files.js';

export const BRIDGE_STATE_FILE = 'bridge.json';

const bridgeState = z.strictObject({
  pid: z.number().int().positive(),
  port: z.number().int().min(1).max(65_535),
  extensionConnected: z.boolean(),
  /** ISO time `extensionConnected` took its current value (the core's start counts). */
  since: z.string(),
  /** Since the last link: an extension built for wire version `v`, not this core's, was refused (first at `at`). */
  otherVersion: z.strictObject({ v: z.number().int(), at: z.string() }).optional(),
});

export type BridgeState = z.infer<typeof bridgeState>;

export function readBridgeState(dataDir: string): BridgeState | undefined {
  return readPrivateJson(join(dataDir, BRIDGE_STATE_FILE), bridgeState);
}

/** True while a process with that id exists (EPERM: it does, as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running core's bridge state, or undefined when none was written or its writer is gone (a crash leaves one). */
export function readLiveBridgeState(dataDir: string): BridgeState | undefined {
  const state = readBridgeState(dataDir);
  return state && processAlive(state.pid) ? state : undefined;
}

/** The core's writer: `started` once the bridge listens, `extensionConnected` on every change, `stopped` on exit. */
export class BridgeStateFile {
  private readonly path: string;
  private state: BridgeState | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly pid = process.pid,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.path = join(dataDir, BRIDGE_STATE_FILE);
  }

  started(port: number): void {
    ensurePrivateDir(this.dataDir);
    this.write({ pid: this.pid, port, extensionConnected: false, since: this.now().toISOString() });
  }

  extensionConnected(connected: boolean): void {
    if (!this.state || this.state.extensionConnected === connected) return;
    // A link proves both ends speak one version now: an earlier refusal is history.
    const { otherVersion, ...rest } = this.state;
    this.write({
      ...(connected ? rest : { ...rest, otherVersion }),
      extensionConnected: connected,
      since: this.now().toISOString(),
    });
  }

  /**
   * An extension of another wire version was refused. The first refusal since the last link is kept: its retries, or a
   * local client cycling versions before any proof, cost no more writes.
   */
  otherVersion(v: number): void {
    if (!this.state || this.state.otherVersion) return;
    this.write({ ...this.state, otherVersion: { v, at: this.now().toISOString() } });
  }

  /** Removes the file if it is still ours: a second core on the same data dir may have written its own since. */
  stopped(): void {
    if (readBridgeState(this.dataDir)?.pid === this.pid) removeFile(this.path);
    this.state = undefined;
  }

  private write(state: BridgeState): void {
    writeFileAtomic(this.path, `${JSON.stringify(state)}\n`);
    this.state = state;
  }
}

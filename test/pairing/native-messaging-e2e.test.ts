// End to end in real Chromium: install-native-host writes the manifest into the profile's NativeMessagingHosts/, and an
// extension with our id gets {secret, port} from sendNativeMessage, while an extension with any other id is refused by
// Chromium itself (allowed_origins) before our host even starts.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXTENSION_ID } from '../../shared/protocol/extension-id.js';
import { DEFAULT_BRIDGE_PORT } from '../../shared/protocol/wire.js';
import { findBrowser } from '../../electron/core/fallback/find-browser.js';
import { BridgeStateFile } from '../../electron/core/pairing/bridge-state.js';
import { SECRET_FILE, SecretStore } from '../../electron/core/pairing/secret-store.js';
import { buildExtension } from '../../scripts/build-extension.js';
import { runCli, tempDirs } from './support/cli.js';
import { ASK_HOST, startProbeBrowser, writeProbeExtension } from './support/probe-browser.js';

const dirs = tempDirs('nm-e2e');
afterAll(() => dirs.cleanup());

async function installInto(profileDir: string, dataDir: string): Promise<void> {
  const run = await runCli(['install-native-host', '--browser-data-dir', profileDir, '--data-dir', dataDir]);
  expect(run.code, run.stderr).toBe(0);
}

describe.skipIf(!findBrowser(undefined))('native messaging in Chromium', () => {
  it('answers an extension with our id, and Chromium refuses one with another id', async () => {
    const root = dirs.make();
    const profileDir = join(root, 'profile');
    const dataDir = join(root, 'data');
    await installInto(profileDir, dataDir);
    const browser = await startProbeBrowser(profileDir, [
      writeProbeExtension(join(root, 'ours'), true),
      writeProbeExtension(join(root, 'stranger'), false),
    ]);
    try {
      const workers = await browser.workers('probe.js');
      const ours = workers.find((worker) => worker.id === EXTENSION_ID);
      const stranger = workers.find((worker) => worker.id !== EXTENSION_ID);
      expect(ours, 'the keyed probe runs with our extension id').toBeDefined();

      expect(await browser.evaluate(stranger!.targetId, ASK_HOST)).toEqual({
        error: 'Access to the specified native messaging host is forbidden.',
      });
      // Refused by Chromium before our host ran: no secret was made for it.
      expect(existsSync(join(dataDir, SECRET_FILE))).toBe(false);

      const first = await browser.evaluate(ours!.targetId, ASK_HOST);
      const stored = await new SecretStore(dataDir).read();
      expect(first).toEqual({ reply: { secret: stored!.secret, port: DEFAULT_BRIDGE_PORT } });

      // A core started since: the next ask carries its port (the manifest and wrapper are found afresh on each call).
      const state = new BridgeStateFile(dataDir);
      state.started(45_678);
      expect(await browser.evaluate(ours!.targetId, ASK_HOST)).toEqual({
        reply: { secret: stored!.secret, port: 45_678 },
      });
      state.stopped();
    } finally {
      await browser.close();
    }
  });

  it('answers the real extension, built from extension/', async () => {
    const root = dirs.make();
    const profileDir = join(root, 'profile');
    const dataDir = join(root, 'data');
    const extensionDir = join(root, 'extension');
    await buildExtension(extensionDir);
    await installInto(profileDir, dataDir);
    const browser = await startProbeBrowser(profileDir, [extensionDir]);
    try {
      const [worker] = await browser.workers('background.js');
      expect(worker!.id).toBe(EXTENSION_ID);
      const answer = await browser.evaluate(worker!.targetId, ASK_HOST);
      expect(answer).toEqual({
        reply: { secret: (await new SecretStore(dataDir).read())!.secret, port: DEFAULT_BRIDGE_PORT },
      });
    } finally {
      await browser.close();
    }
  });
});

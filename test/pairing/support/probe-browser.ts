// Chromium with probe or real extensions loaded, and a way to run code in each extension's service worker: how the
// end-to-end test sees what sendNativeMessage gives an extension.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { NATIVE_HOST_NAME } from '../../../shared/protocol/extension-id.js';
import { startChromium } from '../../support/chromium-process.js';

const REAL_MANIFEST = fileURLToPath(new URL('../../../extension/manifest.json', import.meta.url));

/**
 * A one-file extension that can call native hosts. `keyed`: it carries the real extension's manifest key, so Chromium
 * gives it OUR id; without the key its id comes from its folder's path, i.e. some other extension.
 */
export function writeProbeExtension(dir: string, keyed: boolean): string {
  const { key } = JSON.parse(readFileSync(REAL_MANIFEST, 'utf8')) as { key: string };
  mkdirSync(dir, { recursive: true });
  const manifest = {
    manifest_version: 3,
    name: 'pairing probe',
    version: '1',
    background: { service_worker: 'probe.js' },
    permissions: ['nativeMessaging'],
    ...(keyed ? { key } : {}),
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(join(dir, 'probe.js'), '// Code is run here by the test over CDP.\n');
  return dir;
}

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
}

export interface ProbeBrowser {
  /** Ids of the loaded extensions' service workers, by the worker script they run. */
  workers(script: string): Promise<Array<{ id: string; targetId: string }>>;
  /** Runs an awaited expression in a worker and returns its value. */
  evaluate(targetId: string, expression: string): Promise<unknown>;
  close(): Promise<void>;
}

export async function startProbeBrowser(profileDir: string, extensionDirs: string[]): Promise<ProbeBrowser> {
  const { control, kill } = await startChromium(profileDir, extensionDirs);

  const workers = async (script: string) => {
    for (let attempt = 0; attempt < 100; attempt++) {
      const { targetInfos } = await control.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
      const found = targetInfos.filter((info) => info.type === 'service_worker' && info.url.endsWith(`/${script}`));
      if (found.length === extensionDirs.length)
        return found.map((info) => ({ id: new URL(info.url).host, targetId: info.targetId }));
      await sleep(50);
    }
    throw new Error('the extension workers never started');
  };

  const evaluate = async (targetId: string, expression: string) => {
    const { sessionId } = await control.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId,
      flatten: true,
    });
    try {
      // A worker's target shows up a moment before its extension APIs are bound (a module worker's longer).
      const ready = 'typeof chrome === "object" && typeof chrome.runtime?.id === "string"';
      for (let attempt = 0; attempt < 100; attempt++) {
        const probe = await control.send<{ result: { value?: unknown } }>(
          'Runtime.evaluate',
          { expression: ready, returnByValue: true },
          sessionId,
        );
        if (probe.result.value === true) break;
        await sleep(50);
      }
      const reply = await control.send<{
        result: { value?: unknown };
        exceptionDetails?: { text: string; exception?: { description?: string } };
      }>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId);
      if (reply.exceptionDetails)
        throw new Error(
          `in the worker: ${reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text}`,
        );
      return reply.result.value;
    } finally {
      await control.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    }
  };

  return {
    workers,
    evaluate,
    async close() {
      control.close();
      await kill();
    },
  };
}

/** What the worker gets from sendNativeMessage: the reply, or the error Chromium raised. */
export const ASK_HOST = `chrome.runtime.sendNativeMessage('${NATIVE_HOST_NAME}', { type: 'pairing' })
  .then((reply) => ({ reply }), (error) => ({ error: String(error && error.message || error) }))`;

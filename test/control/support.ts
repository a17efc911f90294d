// Shared ground for the control tests: private temp data dirs, a hub on a real policy file, and a raw HTTP request
// that can send what fetch will not (a forged Host, a huge declared length).
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HeldReleaser } from '../../electron/core/control/held-acts.js';
import { ControlHub, type ControlHubOptions } from '../../electron/core/control/hub.js';
import { bridgePairing, type Pairing } from '../../electron/core/control/pairing-control.js';
import { createBridgeAuth } from '../../electron/core/pairing/bridge-auth.js';
import { PolicyStore, type PolicyStoreOptions } from '../../electron/core/control/policy-store.js';
import { ensurePrivateDir } from '../../electron/core/pairing/private-files.js';
import { SecretStore } from '../../electron/core/pairing/secret-store.js';

export function tempDataDirs() {
  const made: string[] = [];
  return {
    /** A fresh 0700 data dir. */
    make(): string {
      const dir = join(mkdtempSync(join(tmpdir(), 'chrome-mcp-control-')), 'data');
      ensurePrivateDir(dir);
      made.push(dir);
      return dir;
    },
    cleanup(): void {
      // A server that just closed may still write its last file (seen under heavy load): a temp dir left is no failure.
      for (const dir of made.splice(0)) {
        try {
          rmSync(join(dir, '..'), { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
        } catch {
          // left in the system's temp dir
        }
      }
    },
  };
}

export interface HubSetup {
  hub: ControlHub;
  store: PolicyStore;
  dataDir: string;
  logged: string[];
}

export interface HubExtras {
  statusExtra?: () => Promise<Record<string, unknown>>;
  clients?: ControlHubOptions['clients'];
  now?: () => number;
  releaseHeld?: HeldReleaser;
  /** Default: the real pairing parts over the data dir, the secret in its file, no bridge and no built extension. */
  pairing?: Pairing;
}

export function makeHub(dataDir: string, options: Partial<PolicyStoreOptions> & HubExtras = {}): HubSetup {
  const logged: string[] = [];
  const { statusExtra, clients, now, releaseHeld, pairing, ...storeOptions } = options;
  const store = new PolicyStore({ file: join(dataDir, 'policy.json'), ...storeOptions });
  const hub = new ControlHub({
    dataDir,
    policy: store,
    log: (line) => logged.push(line),
    pairing: pairing ?? filePairing(dataDir, (line) => logged.push(line)),
    ...(statusExtra ? { statusExtra } : {}),
    ...(clients ? { clients } : {}),
    ...(now ? { now } : {}),
    ...(releaseHeld ? { releaseHeld } : {}),
  });
  return { hub, store, dataDir, logged };
}

function filePairing(dataDir: string, log: (line: string) => void): Pairing {
  const secrets = new SecretStore(dataDir, async () => undefined);
  const auth = createBridgeAuth({ dataDir, store: secrets });
  return bridgePairing({
    dataDir,
    auth,
    bridge: () => undefined,
    extensionDir: join(dataDir, 'no-extension'),
    log,
    secrets,
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request with exactly these headers (Node adds none but Host, which `headers.host` overrides). */
export function rawRequest(
  port: number,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    declaredLength?: number;
  },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...options.headers };
    if (options.declaredLength !== undefined) headers['content-length'] = options.declaredLength;
    const req = request(
      { host: '127.0.0.1', port, method: options.method ?? 'POST', path: options.path, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    // The server may close as soon as it has answered; what matters is the answer, not our unsent bytes.
    req.on('error', reject);
    if (options.declaredLength !== undefined) req.flushHeaders();
    else req.end(options.body);
  });
}

// The bridge's view of pairing: checks a presented secret, and turns a valid one-time code into a new secret.
import type { BridgeAuth } from '../bridge/handshake.js';
import { sameSecret } from '../bridge/secret-compare.js';
import type { Log } from '../log.js';
import { type Clock, consumePairingCode } from './pairing-code.js';
import { SecretStore } from './secret-store.js';

export interface BridgeAuthOptions {
  dataDir: string;
  store?: SecretStore;
  now?: Clock;
  log?: Log;
}

export function createBridgeAuth({ dataDir, store = new SecretStore(dataDir), now = Date.now, log = () => undefined }: BridgeAuthOptions): BridgeAuth {
  return {
    // Read afresh on every connection: the native host, a separate process, may have created or replaced the secret.
    async verifySecret(secret) {
      const current = await store.read().catch((error: unknown) => {
        log(`pairing: could not read the pairing secret: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      });
      return current !== undefined && sameSecret(secret, current.secret);
    },
    async redeemCode(code) {
      if (!consumePairingCode(dataDir, code, now)) return undefined;
      return (await store.replace()).secret;
    },
  };
}

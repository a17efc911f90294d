// The core's view of pairing: checks a presented secret, turns a valid one-time code into a new secret, and revokes.
import type { BridgeAuth } from '../bridge/handshake.js';
import { sameSecret } from '../bridge/secret-compare.js';
import type { Log } from '../log.js';
import { cancelPairingCode, type Clock, consumePairingCode } from './pairing-code.js';
import { SecretStore } from './secret-store.js';

export interface PairingAuth extends BridgeAuth {
  /**
   * Withdraws any code and forgets the secret for good (see revocation.ts). Waits for a code redemption in flight to
   * finish first, so the secret it mints is forgotten too rather than written after the revoke.
   */
  revoke(): Promise<void>;
}

export interface BridgeAuthOptions {
  dataDir: string;
  store?: SecretStore;
  now?: Clock;
  log?: Log;
}

export function createBridgeAuth({ dataDir, store = new SecretStore(dataDir), now = Date.now, log = () => undefined }: BridgeAuthOptions): PairingAuth {
  // Redemptions and revokes run one at a time: a code consumed just before a revoke withdrew it would otherwise still
  // write its new secret after the revoke forgot the old one, and pair anew after it.
  let last: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(work: () => Promise<T>): Promise<T> => {
    const run = last.then(work);
    last = run.catch(() => undefined);
    return run;
  };
  return {
    // Read afresh on every connection: the native host, a separate process, may have created or replaced the secret.
    async verifySecret(secret) {
      const current = await store.read().catch((error: unknown) => {
        log(`pairing: could not read the pairing secret: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      });
      return current !== undefined && sameSecret(secret, current.secret);
    },
    redeemCode(code) {
      return oneAtATime(async () => (consumePairingCode(dataDir, code, now) ? (await store.replace()).secret : undefined));
    },
    revoke() {
      return oneAtATime(async () => {
        cancelPairingCode(dataDir);
        await store.revoke();
      });
    },
  };
}

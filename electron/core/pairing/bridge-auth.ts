// The core's view of pairing: reads the current secret, opens attempts on the one-time code (which turn into a new
// secret once the extension proved the code), and revokes.
import type { BridgeAuth } from '../bridge/handshake.js';
import type { Log } from '../log.js';
import { cancelPairingCode, type Clock, openPairingAttempt, redeemPairingCode } from './pairing-code.js';
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

export function createBridgeAuth({
  dataDir,
  store = new SecretStore(dataDir),
  now = Date.now,
  log = () => undefined,
}: BridgeAuthOptions): PairingAuth {
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
    async secret() {
      const current = await store.read().catch((error: unknown) => {
        log(`pairing: could not read the pairing secret: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      });
      return current?.secret;
    },
    async pairing() {
      const opened = openPairingAttempt(dataDir, now);
      if (!opened) return undefined;
      return {
        ...opened,
        redeem: () =>
          oneAtATime(async () =>
            redeemPairingCode(dataDir, opened.key, now) ? (await store.replace()).secret : undefined,
          ),
      };
    },
    revoke() {
      return oneAtATime(async () => {
        cancelPairingCode(dataDir);
        await store.revoke();
      });
    },
  };
}

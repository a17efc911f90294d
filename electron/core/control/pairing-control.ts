// Pairing as the control API sees it: the secret's store, the live extension link, the outstanding one-time code and a
// standing revoke, where the extension to load lives, issuing a code, and revoking. The hub gets only the `Pairing`
// seam; the core builds it over the real parts.
import type { PairingCode, PairingStatus } from '../../../shared/control/pairing.js';
import type { BridgeServer } from '../bridge/bridge-server.js';
import { extensionBuilt } from '../package-root.js';
import type { Log } from '../log.js';
import type { PairingAuth } from '../pairing/bridge-auth.js';
import { type Clock, issuePairingCode, outstandingPairingCode } from '../pairing/pairing-code.js';
import { revokedAt } from '../pairing/revocation.js';
import { SecretStore } from '../pairing/secret-store.js';

export interface Pairing {
  status(): PairingStatus;
  /** A fresh code replacing any earlier one, for the person's eyes only; it lifts a standing revoke. */
  issueCode(): PairingCode;
  /** Forgets the secret and any code for good, and ends the live link and any admission still being checked. */
  revoke(): Promise<void>;
}

export interface PairingParts {
  dataDir: string;
  /** The store the bridge checks against: a revoke goes through it, so a code being redeemed cannot slip past. */
  auth: Pick<PairingAuth, 'revoke'>;
  /** The bridge while it listens (none otherwise): its live link, and cutting off what the revoked pairing let in. */
  bridge: () => Pick<BridgeServer, 'link' | 'revoked'> | undefined;
  /** Where the unpacked extension is (`chrome-mcp extension-path`, or the app's resources). */
  extensionDir: string;
  log: Log;
  secrets?: SecretStore;
  now?: Clock;
}

export function bridgePairing({
  dataDir,
  auth,
  bridge,
  extensionDir,
  log,
  secrets = new SecretStore(dataDir),
  now = Date.now,
}: PairingParts): Pairing {
  const status = (): PairingStatus => {
    const store = secrets.location() ?? 'none';
    const linked = bridge()?.link();
    return {
      paired: store !== 'none',
      store,
      connected: linked !== undefined,
      browser: linked ? { chrome: linked.identity.chrome, connectedAt: linked.connectedAt } : null,
      code: outstandingPairingCode(dataDir, now) ?? null,
      revokedAt: revokedAt(dataDir) ?? null,
      extensionPath: extensionBuilt(extensionDir) ? extensionDir : null,
    };
  };
  return {
    status,
    issueCode() {
      const issued = issuePairingCode(dataDir, now);
      log(
        `pairing: issued a one-time code through the control API, valid until ${new Date(issued.expires).toISOString()}`,
      );
      return issued;
    },
    async revoke() {
      try {
        await auth.revoke();
      } finally {
        // After the forget, not before: a check begun between the two could read the old secret under the new epoch.
        bridge()?.revoked();
      }
      log(
        'pairing: revoked through the control API: the secret and any code are forgotten, and the native host hands out none until a new code is asked for',
      );
    },
  };
}

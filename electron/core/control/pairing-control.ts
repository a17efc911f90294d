// Pairing as the control API sees it: the secret's store, the live extension link and the outstanding one-time code,
// issuing a code, and revoking all three. The hub gets only the `Pairing` seam; the core builds it over the real parts.
import type { PairingCode, PairingStatus } from '../../../shared/control/pairing.js';
import { CLOSE_CODES } from '../../../shared/protocol/wire.js';
import type { ExtensionLink } from '../bridge/extension-link.js';
import type { Log } from '../log.js';
import { cancelPairingCode, type Clock, issuePairingCode, outstandingPairingCode } from '../pairing/pairing-code.js';
import { SecretStore } from '../pairing/secret-store.js';

export interface Pairing {
  status(): PairingStatus;
  /** A fresh code replacing any earlier one, for the person's eyes only. */
  issueCode(): PairingCode;
  /** Forgets the secret and any code, and ends the live link. */
  revoke(): Promise<void>;
}

export interface PairingParts {
  dataDir: string;
  /** The extension's live link, if any (none while the bridge is not listening). */
  link: () => Pick<ExtensionLink, 'identity' | 'connectedAt' | 'close'> | undefined;
  log: Log;
  secrets?: SecretStore;
  now?: Clock;
}

export function bridgePairing({ dataDir, link, log, secrets = new SecretStore(dataDir), now = Date.now }: PairingParts): Pairing {
  const status = (): PairingStatus => {
    const store = secrets.location() ?? 'none';
    const linked = link();
    return {
      paired: store !== 'none',
      store,
      connected: linked !== undefined,
      browser: linked ? { chrome: linked.identity.chrome, connectedAt: linked.connectedAt } : null,
      code: outstandingPairingCode(dataDir, now) ?? null,
    };
  };
  return {
    status,
    issueCode() {
      const issued = issuePairingCode(dataDir, now);
      log(`pairing: issued a one-time code through the control API, valid until ${new Date(issued.expires).toISOString()}`);
      return issued;
    },
    async revoke() {
      cancelPairingCode(dataDir);
      try {
        await secrets.forget();
      } finally {
        // Told its secret is bad, the extension stops dialling with it and waits to be paired again (the native
        // host, where installed, pairs it anew at once: that is its job).
        link()?.close(CLOSE_CODES.unauthorized, 'pairing revoked', 'bad_secret');
      }
      log('pairing: revoked through the control API: the secret and any code are forgotten');
    },
  };
}

// The long-lived pairing secret: in the OS keychain when one answers, else in a 0600 file in the 0700 data dir.
// `<data-dir>/secret.json` always says which (and holds the secret itself only in the file case).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { withFileLock } from './file-lock.js';
import { type Keychain, openKeychain } from './keychain.js';
import { ensurePrivateDir, readPrivateJson, removeFile, writeFileAtomic } from './private-files.js';
import { markRevoked, PairingRevokedError, revokedAt } from './revocation.js';

export type SecretStoreKind = 'keychain' | 'file';

export interface StoredSecret {
  secret: string;
  kind: SecretStoreKind;
}

const record = z.discriminatedUnion('store', [
  z.strictObject({ v: z.literal(1), store: z.literal('keychain'), created: z.string() }),
  z.strictObject({
    v: z.literal(1),
    store: z.literal('file'),
    created: z.string(),
    secret: z.string().min(43).max(256),
  }),
]);

export const SECRET_FILE = 'secret.json';

/** 32 random bytes: the bridge's whole defence against another local process, so never fewer. */
function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export class SecretStore {
  private readonly path: string;

  /** The keychain account: the data dir's absolute path, so two data dirs (two cores, or a test's) never share a secret. */
  private readonly account: string;

  private readonly lock: string;

  constructor(
    private readonly dataDir: string,
    private readonly keychain: () => Promise<Keychain | undefined> = openKeychain,
  ) {
    this.path = join(dataDir, SECRET_FILE);
    this.lock = join(dataDir, 'secret.lock');
    this.account = dataDir;
  }

  /** Where the secret lives, from the record alone (no keychain call): for `status` and `doctor`. */
  location(): SecretStoreKind | undefined {
    return readPrivateJson(this.path, record)?.store;
  }

  /**
   * The current secret, or undefined when there is none (never paired, or its record or keychain entry deleted,
   * which revokes it). Throws when the record says keychain and the keychain does not answer: falling back to a new
   * file secret here would silently fork the secret between the native host and the core.
   */
  async read(): Promise<StoredSecret | undefined> {
    const current = readPrivateJson(this.path, record);
    if (!current) return undefined;
    if (current.store === 'file') return { secret: current.secret, kind: 'file' };
    const keychain = await this.keychain();
    if (!keychain)
      throw new Error('the pairing secret is in the OS keychain, which cannot be reached from this process');
    const secret = await keychain.get(this.account);
    return secret === null ? undefined : { secret, kind: 'keychain' };
  }

  /**
   * The secret to hand the extension, created when there is none yet: once, however many processes ask at the same
   * moment. Throws PairingRevokedError while a revoke stands (revocation.ts).
   */
  async ensure(): Promise<StoredSecret> {
    if (revokedAt(this.dataDir) !== undefined) throw new PairingRevokedError();
    const existing = await this.read();
    if (existing) return existing;
    ensurePrivateDir(this.dataDir);
    // The second asker finds the first one's secret when it gets the lock, instead of minting a rival; and the marker
    // is read again there, since a revoke forgets under the same lock: a secret minted after it would outlive it.
    return withFileLock(this.lock, async () => {
      if (revokedAt(this.dataDir) !== undefined) throw new PairingRevokedError();
      return (await this.read()) ?? (await this.replace());
    });
  }

  /** A new secret in place of the old one, which stops working at once (re-pairing). */
  async replace(): Promise<StoredSecret> {
    ensurePrivateDir(this.dataDir);
    const secret = newSecret();
    const created = new Date().toISOString();
    if (await this.storeInKeychain(secret)) {
      writeFileAtomic(this.path, `${JSON.stringify({ v: 1, store: 'keychain', created })}\n`);
      return { secret, kind: 'keychain' };
    }
    writeFileAtomic(this.path, `${JSON.stringify({ v: 1, store: 'file', created, secret })}\n`);
    return { secret, kind: 'file' };
  }

  /** Forgets the secret, which revokes it: nothing verifies against it any more, and `ensure` would make a new one. */
  async forget(): Promise<void> {
    const kind = this.location();
    // The record first: without it nothing reads the secret, whatever the keychain then does.
    removeFile(this.path);
    if (kind !== 'keychain') return;
    // A process that cannot reach the keychain leaves the entry behind, unread without its record; the next pairing
    // overwrites it (same account).
    await (await this.keychain())?.remove(this.account);
  }

  /** Forgets the secret for good: the native host hands out none until the person pairs again on purpose. */
  async revoke(): Promise<void> {
    markRevoked(this.dataDir);
    await withFileLock(this.lock, () => this.forget());
  }

  /** True when the keychain took the secret and gives the same one back (a keyring may accept a write it drops). */
  private async storeInKeychain(secret: string): Promise<boolean> {
    const keychain = await this.keychain();
    if (!keychain) return false;
    try {
      await keychain.set(this.account, secret);
      return (await keychain.get(this.account)) === secret;
    } catch {
      // No secret service on the bus, a locked keyring, a deadline: the file is the documented fallback.
      return false;
    }
  }
}

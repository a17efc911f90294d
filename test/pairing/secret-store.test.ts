// The pairing secret's store: the 0600 file fallback, the fail-closed rules, and the real OS keychain when one answers.
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBridgeAuth } from '../../electron/core/pairing/bridge-auth.js';
import { KEYCHAIN_SERVICE, type Keychain, openKeychain } from '../../electron/core/pairing/keychain.js';
import { issuePairingCode } from '../../electron/core/pairing/pairing-code.js';
import { ensurePrivateDir, writeFileAtomic } from '../../electron/core/pairing/private-files.js';
import { markRevoked, PairingRevokedError, REVOKED_FILE } from '../../electron/core/pairing/revocation.js';
import { SECRET_FILE, SecretStore } from '../../electron/core/pairing/secret-store.js';
import { tempDirs } from './support/cli.js';
import { EXPECT_KEYCHAIN, keychainUnavailable } from './support/keychain-probe.js';
import { holds } from './support/redeem.js';

const dirs = tempDirs('store');
afterAll(() => dirs.cleanup());

const mode = (path: string) => statSync(path).mode & 0o777;
const noKeychain = () => Promise.resolve(undefined);
/** A keychain that is there but never works: no secret service on the bus, a locked keyring past its deadline. */
const brokenKeychain = (): Promise<Keychain> =>
  Promise.resolve({
    get: () => Promise.reject(new Error('no secret service')),
    set: () => Promise.reject(new Error('no secret service')),
    remove: () => Promise.reject(new Error('no secret service')),
  });

describe('secret store without a keychain', () => {
  it('makes a 32-byte base64url secret in a 0600 file in a 0700 dir, and says so', async () => {
    const dataDir = dirs.dataDir();
    const store = new SecretStore(dataDir, noKeychain);
    expect(store.location()).toBeUndefined();
    expect(await store.read()).toBeUndefined();
    const made = await store.ensure();
    expect(made.kind).toBe('file');
    expect(Buffer.from(made.secret, 'base64url')).toHaveLength(32);
    expect(made.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, SECRET_FILE))).toBe(0o600);
    expect(store.location()).toBe('file');
    expect(await store.ensure()).toEqual(made);
    expect(await new SecretStore(dataDir, noKeychain).read()).toEqual(made);
  });

  it('falls back to the file when the keychain loads but refuses the write', async () => {
    const store = new SecretStore(dirs.dataDir(), brokenKeychain);
    expect((await store.ensure()).kind).toBe('file');
  });

  it('re-pairing revokes: the old secret stops verifying, the new one verifies', async () => {
    const dataDir = dirs.dataDir();
    const store = new SecretStore(dataDir, noKeychain);
    const auth = createBridgeAuth({ dataDir, store });
    const old = await store.ensure();
    expect(await holds(auth, old.secret)).toBe(true);
    const fresh = await store.replace();
    expect(fresh.secret).not.toBe(old.secret);
    expect(await holds(auth, old.secret)).toBe(false);
    expect(await holds(auth, fresh.secret)).toBe(true);
  });

  it('verifies nothing before pairing, nor an empty, truncated, extended or huge secret', async () => {
    const dataDir = dirs.dataDir();
    const store = new SecretStore(dataDir, noKeychain);
    const auth = createBridgeAuth({ dataDir, store });
    expect(await holds(auth, '')).toBe(false);
    const { secret } = await store.ensure();
    for (const wrong of ['', secret.slice(0, -1), `${secret}A`, secret.toUpperCase(), 'x'.repeat(10_000)])
      expect(await holds(auth, wrong)).toBe(false);
  });

  it('forgetting revokes: the file goes, nothing verifies, and the next ensure makes a new secret', async () => {
    const dataDir = dirs.dataDir();
    const store = new SecretStore(dataDir, noKeychain);
    const auth = createBridgeAuth({ dataDir, store });
    const old = await store.ensure();
    await store.forget();
    expect(store.location()).toBeUndefined();
    expect(await store.read()).toBeUndefined();
    expect(await holds(auth, old.secret)).toBe(false);
    expect((await store.ensure()).secret).not.toBe(old.secret);
  });

  it('revoking sticks: ensure refuses, even one already waiting on the lock to mint when the revoke came, until a code is issued', async () => {
    const dataDir = dirs.dataDir();
    let reached = () => undefined as void;
    const readDone = new Promise<void>((resolve) => (reached = resolve));
    // Signals once ensure has passed its first look at the revoke mark and found no secret: it is about to mint.
    const store = new (class extends SecretStore {
      override async read() {
        const current = await super.read();
        reached();
        return current;
      }
    })(dataDir, noKeychain);
    ensurePrivateDir(dataDir);
    // The lock as a revoke in another process holds it while it forgets.
    const lock = join(dataDir, 'secret.lock');
    writeFileSync(lock, '');
    const waiting = store.ensure();
    await readDone;
    markRevoked(dataDir);
    rmSync(lock);
    await expect(waiting).rejects.toBeInstanceOf(PairingRevokedError);
    expect(store.location()).toBeUndefined();

    await store.revoke();
    expect(mode(join(dataDir, REVOKED_FILE))).toBe(0o600);
    await expect(store.ensure()).rejects.toBeInstanceOf(PairingRevokedError);
    issuePairingCode(dataDir);
    expect((await store.ensure()).kind).toBe('file');
  });

  it('a revoke mark that does not parse still stands', async () => {
    const dataDir = dirs.dataDir();
    ensurePrivateDir(dataDir);
    writeFileAtomic(join(dataDir, REVOKED_FILE), 'not json');
    await expect(new SecretStore(dataDir, noKeychain).ensure()).rejects.toBeInstanceOf(PairingRevokedError);
  });

  it('deleting secret.json revokes the secret; a keychain record with no keychain fails closed instead of forking', async () => {
    const dataDir = dirs.dataDir();
    const store = new SecretStore(dataDir, noKeychain);
    await store.ensure();
    rmSync(join(dataDir, SECRET_FILE));
    expect(await store.read()).toBeUndefined();

    // secret.json says "keychain" but this process cannot reach one: a new file secret here would split the native
    // host's secret from the core's, so read, ensure and verify all refuse rather than make one.
    const logs: string[] = [];
    const stranded = new SecretStore(dataDir, noKeychain);
    const auth = createBridgeAuth({ dataDir, store: stranded, log: (line) => logs.push(line) });
    const record = `${JSON.stringify({ v: 1, store: 'keychain', created: new Date().toISOString() })}\n`;
    writeFileAtomic(join(dataDir, SECRET_FILE), record);
    await expect(stranded.read()).rejects.toThrow(/keychain/);
    await expect(stranded.ensure()).rejects.toThrow(/keychain/);
    expect(await holds(auth, 'anything')).toBe(false);
    expect(logs.join('\n')).toMatch(/could not read the pairing secret/);
    expect(readFileSync(join(dataDir, SECRET_FILE), 'utf8')).toBe(record);
  });
});

const unavailable = await keychainUnavailable();
if (unavailable && EXPECT_KEYCHAIN) throw new Error(`CHROME_MCP_EXPECT_KEYCHAIN=1 but ${unavailable}`);

describe.skipIf(unavailable !== undefined)(
  `secret store in the real OS keychain${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    it('keeps the secret in the keychain under the data dir as account, and only a marker in secret.json', async () => {
      const dataDir = dirs.dataDir();
      const store = new SecretStore(dataDir);
      const made = await store.ensure();
      expect(made.kind).toBe('keychain');
      expect(store.location()).toBe('keychain');
      const keytar = (await import('keytar')).default;
      expect(await keytar.getPassword(KEYCHAIN_SERVICE, dataDir)).toBe(made.secret);
      const file = readFileSync(join(dataDir, SECRET_FILE), 'utf8');
      expect(file).not.toContain(made.secret);
      expect(JSON.parse(file)).toMatchObject({ v: 1, store: 'keychain' });
      expect(mode(join(dataDir, SECRET_FILE))).toBe(0o600);
      expect(await new SecretStore(dataDir).read()).toEqual(made);
    });

    it('gives two data dirs two secrets, and re-pairing replaces only its own', async () => {
      const [a, b] = [dirs.dataDir(), dirs.dataDir()];
      const first = await new SecretStore(a).ensure();
      const second = await new SecretStore(b).ensure();
      expect(first.secret).not.toBe(second.secret);
      const replaced = await new SecretStore(a).replace();
      expect((await new SecretStore(a).read())?.secret).toBe(replaced.secret);
      expect((await new SecretStore(b).read())?.secret).toBe(second.secret);
      const auth = createBridgeAuth({ dataDir: a });
      expect(await holds(auth, first.secret)).toBe(false);
      expect(await holds(auth, replaced.secret)).toBe(true);
    });

    it('moves a file secret into the keychain on re-pairing, leaving no secret in the file', async () => {
      const dataDir = dirs.dataDir();
      const filed = await new SecretStore(dataDir, noKeychain).ensure();
      expect(filed.kind).toBe('file');
      const moved = await new SecretStore(dataDir).replace();
      expect(moved.kind).toBe('keychain');
      expect(readFileSync(join(dataDir, SECRET_FILE), 'utf8')).not.toContain(filed.secret);
    });

    it('forgetting deletes the keychain entry as well as the record', async () => {
      const dataDir = dirs.dataDir();
      await new SecretStore(dataDir).ensure();
      await new SecretStore(dataDir).forget();
      expect(new SecretStore(dataDir).location()).toBeUndefined();
      expect(await (await openKeychain())!.get(dataDir)).toBeNull();
    });

    it('a keychain entry deleted behind our back reads as unpaired', async () => {
      const dataDir = dirs.dataDir();
      await new SecretStore(dataDir).ensure();
      await (await openKeychain())!.remove(dataDir);
      expect(await new SecretStore(dataDir).read()).toBeUndefined();
    });
  },
);

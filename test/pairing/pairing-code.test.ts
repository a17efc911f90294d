// Manual pairing: one-time codes that work once, for two minutes, for five attempts, and turn into a new secret. Each
// attempt spends a try before the core proves anything with the code, so at most five proofs made with it ever exist.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBridgeAuth } from '../../electron/core/pairing/bridge-auth.js';
import {
  cancelPairingCode,
  CODE_FILE,
  CODE_TRIES,
  CODE_TTL_MS,
  issuePairingCode,
} from '../../electron/core/pairing/pairing-code.js';
import { ensurePrivateDir, writeFileAtomic } from '../../electron/core/pairing/private-files.js';
import { codeKey, toBase64Url } from '../../shared/protocol/bridge-proof.js';
import { SecretStore } from '../../electron/core/pairing/secret-store.js';
import { tempDirs } from './support/cli.js';
import { holds, redeemCode } from './support/redeem.js';

const dirs = tempDirs('code');
afterAll(() => dirs.cleanup());

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function setup() {
  const dataDir = dirs.dataDir();
  const clock = manualClock();
  // The file store keeps these tests about codes; the keychain has its own tests.
  const store = new SecretStore(dataDir, () => Promise.resolve(undefined));
  const auth = createBridgeAuth({ dataDir, store, now: clock.now });
  const issue = () => issuePairingCode(dataDir, clock.now).code;
  return { dataDir, clock, store, auth, issue, codeFile: join(dataDir, CODE_FILE) };
}

/** A code that differs from `code` (same shape, so only its value makes it wrong). */
function wrong(code: string): string {
  return code.startsWith('2') ? `3${code.slice(1)}` : `2${code.slice(1)}`;
}

describe('pairing codes', () => {
  it('look like XXXX-XXXX from an alphabet without 0/O or 1/I; only their key (PBKDF2, fresh salt) is kept, 0600', async () => {
    const { issue, codeFile } = setup();
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const code = issue();
      expect(code).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
      seen.add(code);
      const stored = readFileSync(codeFile, 'utf8');
      expect(stored).not.toContain(code.replace('-', ''));
      const record = JSON.parse(stored) as { key: string; salt: string };
      expect(record).toMatchObject({
        v: 2,
        key: expect.stringMatching(/^[\w-]{43}$/),
        salt: expect.stringMatching(/^[\w-]{22}$/),
        triesLeft: CODE_TRIES,
      });
      // The extension's WebCrypto derivation of what the person typed gives the same key.
      if (i < 3) expect(toBase64Url(await codeKey(code.toLowerCase(), record.salt))).toBe(record.key);
    }
    expect(seen.size).toBe(20);
    expect(statSync(codeFile).mode & 0o777).toBe(0o600);
  });

  it('read a v1 code file (a plain SHA-256) as no code at all', async () => {
    const { auth, dataDir, codeFile } = setup();
    ensurePrivateDir(dataDir);
    writeFileAtomic(
      codeFile,
      `${JSON.stringify({ v: 1, sha256: '0'.repeat(64), expires: Date.now() * 2, triesLeft: 5 })}\n`,
    );
    expect(await auth.pairing()).toBeUndefined();
    expect(existsSync(join(dataDir, CODE_FILE))).toBe(false);
  });

  it('redeem once into a new secret that revokes the old one; the same code then fails', async () => {
    const { auth, store, issue, codeFile } = setup();
    const old = await store.ensure();
    const code = issue();
    const secret = await redeemCode(auth, code);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secret).not.toBe(old.secret);
    expect(await holds(auth, secret!)).toBe(true);
    expect(await holds(auth, old.secret)).toBe(false);
    expect(existsSync(codeFile)).toBe(false);
    expect(await redeemCode(auth, code)).toBeUndefined();
  });

  it('accept what a person types: lower case, no dash, spaces', async () => {
    for (const typed of [
      (code: string) => code.toLowerCase(),
      (code: string) => code.replace('-', ''),
      (code: string) => ` ${code.replace('-', ' ')} `,
    ]) {
      const { auth, issue } = setup();
      expect(await redeemCode(auth, typed(issue()))).toBeDefined();
    }
  });

  it('expire after two minutes, and the expired file is gone', async () => {
    const { auth, issue, clock, codeFile } = setup();
    const code = issue();
    clock.advance(CODE_TTL_MS - 1);
    const early = issue();
    clock.advance(CODE_TTL_MS - 1);
    expect(await redeemCode(auth, early)).toBeDefined();
    const late = issue();
    clock.advance(CODE_TTL_MS);
    expect(await redeemCode(auth, late)).toBeUndefined();
    expect(existsSync(codeFile)).toBe(false);
    expect(await redeemCode(auth, code)).toBeUndefined();
  });

  it('die after five attempts, each spent before the core proves anything: even the right code fails then', async () => {
    const { auth, store, issue, codeFile } = setup();
    const old = await store.ensure();
    const code = issue();
    for (let i = 1; i < CODE_TRIES; i++) {
      expect(await redeemCode(auth, wrong(code))).toBeUndefined();
      expect(JSON.parse(readFileSync(codeFile, 'utf8'))).toMatchObject({ triesLeft: CODE_TRIES - i });
    }
    // An attempt that never answers (a peer that took the core's proof and left) spends its try all the same.
    expect(await auth.pairing()).toBeDefined();
    expect(await auth.pairing()).toBeUndefined();
    expect(await redeemCode(auth, code)).toBeUndefined();
    expect(await holds(auth, old.secret)).toBe(true);
  });

  it('a wrong try or four still leaves the right code working', async () => {
    const { auth, issue } = setup();
    const code = issue();
    for (let i = 1; i < CODE_TRIES; i++) await redeemCode(auth, wrong(code));
    expect(await redeemCode(auth, code)).toBeDefined();
  });

  it('an attempt opened before the code was replaced or withdrawn redeems nothing', async () => {
    const { auth, dataDir, issue } = setup();
    issue();
    const replaced = await auth.pairing();
    issue();
    expect(await replaced!.redeem()).toBeUndefined();
    const withdrawn = await auth.pairing();
    cancelPairingCode(dataDir);
    expect(await withdrawn!.redeem()).toBeUndefined();
  });

  it('a new `pair` replaces the earlier code, and no code at all redeems nothing', async () => {
    const { auth, issue } = setup();
    expect(await redeemCode(auth, 'ABCD-EFGH')).toBeUndefined();
    const first = issue();
    const second = issue();
    expect(await redeemCode(auth, first)).toBeUndefined();
    expect(await redeemCode(auth, second)).toBeDefined();
  });

  it('concurrent attempts never redeem one code twice', async () => {
    const { auth, issue } = setup();
    const code = issue();
    const results = await Promise.all(Array.from({ length: 10 }, () => redeemCode(auth, code)));
    expect(results.filter((result) => result !== undefined)).toHaveLength(1);
  });
});

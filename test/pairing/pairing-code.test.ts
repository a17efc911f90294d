// Manual pairing: one-time codes that work once, for two minutes, for five tries, and turn into a new secret.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBridgeAuth } from '../../electron/core/pairing/bridge-auth.js';
import { CODE_FILE, CODE_TRIES, CODE_TTL_MS, issuePairingCode } from '../../electron/core/pairing/pairing-code.js';
import { SecretStore } from '../../electron/core/pairing/secret-store.js';
import { tempDirs } from './support/cli.js';

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
  it('look like XXXX-XXXX from an alphabet without 0/O or 1/I, and only their SHA-256 is kept, in a 0600 file', () => {
    const { issue, codeFile } = setup();
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const code = issue();
      expect(code).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
      seen.add(code);
      const stored = readFileSync(codeFile, 'utf8');
      expect(stored).not.toContain(code.replace('-', ''));
      expect(JSON.parse(stored)).toMatchObject({ v: 1, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), triesLeft: CODE_TRIES });
    }
    expect(seen.size).toBe(50);
    expect(statSync(codeFile).mode & 0o777).toBe(0o600);
  });

  it('redeem once into a new secret that revokes the old one; the same code then fails', async () => {
    const { auth, store, issue, codeFile } = setup();
    const old = await store.ensure();
    const code = issue();
    const secret = await auth.redeemCode(code);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secret).not.toBe(old.secret);
    expect(await auth.verifySecret(secret!)).toBe(true);
    expect(await auth.verifySecret(old.secret)).toBe(false);
    expect(existsSync(codeFile)).toBe(false);
    expect(await auth.redeemCode(code)).toBeUndefined();
  });

  it('accept what a person types: lower case, no dash, spaces', async () => {
    for (const typed of [(code: string) => code.toLowerCase(), (code: string) => code.replace('-', ''), (code: string) => ` ${code.replace('-', ' ')} `]) {
      const { auth, issue } = setup();
      expect(await auth.redeemCode(typed(issue()))).toBeDefined();
    }
  });

  it('expire after two minutes, and the expired file is gone', async () => {
    const { auth, issue, clock, codeFile } = setup();
    const code = issue();
    clock.advance(CODE_TTL_MS - 1);
    const early = issue();
    clock.advance(CODE_TTL_MS - 1);
    expect(await auth.redeemCode(early)).toBeDefined();
    const late = issue();
    clock.advance(CODE_TTL_MS);
    expect(await auth.redeemCode(late)).toBeUndefined();
    expect(existsSync(codeFile)).toBe(false);
    expect(await auth.redeemCode(code)).toBeUndefined();
  });

  it('die after five wrong tries: even the right code fails then, and nothing was re-paired', async () => {
    const { auth, store, issue, codeFile } = setup();
    const old = await store.ensure();
    const code = issue();
    for (let i = 1; i < CODE_TRIES; i++) {
      expect(await auth.redeemCode(wrong(code))).toBeUndefined();
      expect(JSON.parse(readFileSync(codeFile, 'utf8'))).toMatchObject({ triesLeft: CODE_TRIES - i });
    }
    expect(await auth.redeemCode('garbage that is not even a code')).toBeUndefined();
    expect(existsSync(codeFile)).toBe(false);
    expect(await auth.redeemCode(code)).toBeUndefined();
    expect(await auth.verifySecret(old.secret)).toBe(true);
  });

  it('a wrong try or four still leaves the right code working', async () => {
    const { auth, issue } = setup();
    const code = issue();
    for (let i = 1; i < CODE_TRIES; i++) await auth.redeemCode(wrong(code));
    expect(await auth.redeemCode(code)).toBeDefined();
  });

  it('a new `pair` replaces the earlier code, and no code at all redeems nothing', async () => {
    const { auth, issue } = setup();
    expect(await auth.redeemCode('ABCD-EFGH')).toBeUndefined();
    const first = issue();
    const second = issue();
    expect(await auth.redeemCode(first)).toBeUndefined();
    expect(await auth.redeemCode(second)).toBeDefined();
  });

  it('concurrent attempts never redeem one code twice', async () => {
    const { auth, issue } = setup();
    const code = issue();
    const results = await Promise.all(Array.from({ length: 10 }, () => auth.redeemCode(code)));
    expect(results.filter((result) => result !== undefined)).toHaveLength(1);
  });
});

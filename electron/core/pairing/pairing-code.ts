// One-time pairing codes for manual pairing: `chrome-mcp pair` issues one, the running core's bridge opens attempts
// against it. Only the code's key (CODE_KDF, with a fresh salt) is kept, in a 0600 file, with its expiry and tries left.
import { pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { CODE_KDF, normaliseCode } from '../../../shared/protocol/bridge-proof.js';
import { ensurePrivateDir, readPrivateJson, removeFile, writeFileAtomic } from './private-files.js';
import { liftRevocation } from './revocation.js';

export const CODE_TTL_MS = 2 * 60_000;
export const CODE_TRIES = 5;
export const CODE_FILE = 'pairing-code.json';

/** 32 symbols (2 through 9 and the letters but I and O), so a byte's low 5 bits pick one without bias. */
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const CODE_LENGTH = 8;
const SALT_BYTES = 16;

// v2: the key the bridge handshake proves with (v1 kept a plain SHA-256, which a v1 code file still holds: it reads
// as no code, and the person asks for a new one).
const codeRecord = z.strictObject({
  v: z.literal(2),
  /** base64url. As good as the code for its two minutes, so it is kept like the secret: 0600 in the 0700 data dir. */
  key: z.string().regex(/^[\w-]{43}$/),
  salt: z.string().regex(/^[\w-]{22}$/),
  expires: z.number(),
  triesLeft: z.number().int().min(0).max(CODE_TRIES),
});
type CodeRecord = z.infer<typeof codeRecord>;

export type Clock = () => number;

/** The same derivation as the extension's codeKey (shared/protocol/bridge-proof.ts), in Node's synchronous form. */
function deriveKey(code: string, salt: string): Buffer {
  return pbkdf2Sync(normaliseCode(code), Buffer.from(salt, 'base64url'), CODE_KDF.iterations, CODE_KDF.bytes, 'sha256');
}

export interface IssuedCode {
  /** `XXXX-XXXX`: for the person's eyes only. */
  code: string;
  /** When it stops working (ms since the epoch). */
  expires: number;
}

/** One opened attempt: the salt and key the handshake proves with. */
export interface OpenedAttempt {
  salt: string;
  key: Uint8Array;
}

/**
 * A fresh code (`XXXX-XXXX`, 40 bits) replacing any earlier one. Asking for one is the person pairing again on purpose,
 * so it lifts a standing revoke: the native host may hand the extension a secret again.
 */
export function issuePairingCode(dataDir: string, now: Clock = Date.now): IssuedCode {
  ensurePrivateDir(dataDir);
  const code = [...randomBytes(CODE_LENGTH)].map((byte) => ALPHABET[byte & 31]).join('');
  const salt = randomBytes(SALT_BYTES).toString('base64url');
  const stored: CodeRecord = {
    v: 2,
    key: deriveKey(code, salt).toString('base64url'),
    salt,
    expires: now() + CODE_TTL_MS,
    triesLeft: CODE_TRIES,
  };
  writeFileAtomic(join(dataDir, CODE_FILE), `${JSON.stringify(stored)}\n`);
  liftRevocation(dataDir);
  return { code: `${code.slice(0, 4)}-${code.slice(4)}`, expires: stored.expires };
}

/** The live code's expiry; undefined when none is outstanding (never issued, used, expired or out of tries). */
export function outstandingPairingCode(dataDir: string, now: Clock = Date.now): { expires: number } | undefined {
  const stored = readPrivateJson(join(dataDir, CODE_FILE), codeRecord);
  return stored && now() < stored.expires && stored.triesLeft > 0 ? { expires: stored.expires } : undefined;
}

/** Withdraws the outstanding code, if any: it pairs nothing from now on. */
export function cancelPairingCode(dataDir: string): void {
  removeFile(join(dataDir, CODE_FILE));
}

/**
 * Spends one try of the live code and hands out its key, before the core proves anything with it: each attempt gives
 * its peer one proof made with the code (a transcript to brute-force offline, see CODE_KDF), so at most CODE_TRIES
 * such transcripts exist per code, whether the attempts succeed or not. Synchronous on purpose: no other attempt in
 * this process can interleave between reading the tries and writing them back.
 */
export function openPairingAttempt(dataDir: string, now: Clock = Date.now): OpenedAttempt | undefined {
  const path = join(dataDir, CODE_FILE);
  const stored = readPrivateJson(path, codeRecord);
  if (!stored || now() >= stored.expires) {
    removeFile(path);
    return undefined;
  }
  if (stored.triesLeft < 1) return undefined;
  writeFileAtomic(path, `${JSON.stringify({ ...stored, triesLeft: stored.triesLeft - 1 })}\n`);
  return { salt: stored.salt, key: new Uint8Array(Buffer.from(stored.key, 'base64url')) };
}

/**
 * True once, for an attempt on the code that is still live (not replaced, withdrawn or expired since it was opened):
 * the code is then gone, so it pairs one extension only.
 */
export function redeemPairingCode(dataDir: string, key: Uint8Array, now: Clock = Date.now): boolean {
  const path = join(dataDir, CODE_FILE);
  const stored = readPrivateJson(path, codeRecord);
  if (!stored || now() >= stored.expires) return false;
  const held = Buffer.from(stored.key, 'base64url');
  if (held.length !== key.length || !timingSafeEqual(held, key)) return false;
  removeFile(path);
  return true;
}

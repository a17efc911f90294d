// One-time pairing codes for manual pairing: `chrome-mcp pair` issues one, the running core's bridge checks it.
// Only the code's SHA-256 is kept, in a 0600 file, with its expiry and the tries it has left.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, readPrivateJson, removeFile, writeFileAtomic } from './private-files.js';
import { liftRevocation } from './revocation.js';

export const CODE_TTL_MS = 2 * 60_000;
export const CODE_TRIES = 5;
export const CODE_FILE = 'pairing-code.json';

/** 32 symbols (2 through 9 and the letters but I and O), so a byte's low 5 bits pick one without bias. */
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const CODE_LENGTH = 8;

const codeRecord = z.strictObject({
  v: z.literal(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  expires: z.number(),
  triesLeft: z.number().int().min(1).max(CODE_TRIES),
});

export type Clock = () => number;

/** What the person types: case, spaces and dashes do not matter. */
function normalise(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

function digest(code: string): Buffer {
  return createHash('sha256').update(normalise(code), 'utf8').digest();
}

export interface IssuedCode {
  /** `XXXX-XXXX`: for the person's eyes only. */
  code: string;
  /** When it stops working (ms since the epoch). */
  expires: number;
}

/**
 * A fresh code (`XXXX-XXXX`, 40 bits) replacing any earlier one. Asking for one is the person pairing again on purpose,
 * so it lifts a standing revoke: the native host may hand the extension a secret again.
 */
export function issuePairingCode(dataDir: string, now: Clock = Date.now): IssuedCode {
  ensurePrivateDir(dataDir);
  const code = [...randomBytes(CODE_LENGTH)].map((byte) => ALPHABET[byte & 31]).join('');
  const stored = { v: 1, sha256: digest(code).toString('hex'), expires: now() + CODE_TTL_MS, triesLeft: CODE_TRIES };
  writeFileAtomic(join(dataDir, CODE_FILE), `${JSON.stringify(stored)}\n`);
  liftRevocation(dataDir);
  return { code: `${code.slice(0, 4)}-${code.slice(4)}`, expires: stored.expires };
}

/** The live code's expiry; undefined when none is outstanding (never issued, used, expired or out of tries). */
export function outstandingPairingCode(dataDir: string, now: Clock = Date.now): { expires: number } | undefined {
  const stored = readPrivateJson(join(dataDir, CODE_FILE), codeRecord);
  return stored && now() < stored.expires ? { expires: stored.expires } : undefined;
}

/** Withdraws the outstanding code, if any: it pairs nothing from now on. */
export function cancelPairingCode(dataDir: string): void {
  removeFile(join(dataDir, CODE_FILE));
}

/**
 * True once for the live code; every other attempt spends a try. The file goes on success, expiry or the last try,
 * so a code is single use and at most CODE_TRIES guesses are ever checked against it. Synchronous on purpose: no
 * other attempt in this process can interleave between reading the tries and writing them back.
 */
export function consumePairingCode(dataDir: string, code: string, now: Clock = Date.now): boolean {
  const path = join(dataDir, CODE_FILE);
  const stored = readPrivateJson(path, codeRecord);
  if (!stored || now() >= stored.expires) {
    removeFile(path);
    return false;
  }
  if (timingSafeEqual(digest(code), Buffer.from(stored.sha256, 'hex'))) {
    removeFile(path);
    return true;
  }
  if (stored.triesLeft <= 1) removeFile(path);
  else writeFileAtomic(path, `${JSON.stringify({ ...stored, triesLeft: stored.triesLeft - 1 })}\n`);
  return false;
}

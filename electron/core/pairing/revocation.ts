// `<data-dir>/revoked.json`: a revoke that sticks. While it stands the native host hands the extension no secret, so
// the extension asking the host again a moment after Revoke does not quietly pair it anew. Asking for a pairing code
// (the panel, the tray, `chrome-mcp pair`) is pairing again on purpose, and lifts it.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, readPrivateJson, removeFile, writeFileAtomic } from './private-files.js';

export const REVOKED_FILE = 'revoked.json';

const marker = z.strictObject({ v: z.literal(1), at: z.number() });

/** What the native host's store throws while a revoke stands. */
export class PairingRevokedError extends Error {
  constructor() {
    super('the pairing was revoked in the app; it hands out no secret until it is paired again there');
  }
}

export function markRevoked(dataDir: string, now: () => number = Date.now): void {
  ensurePrivateDir(dataDir);
  writeFileAtomic(join(dataDir, REVOKED_FILE), `${JSON.stringify({ v: 1, at: now() })}\n`);
}

/** When the standing revoke was made (ms since the epoch); undefined when none stands. */
export function revokedAt(dataDir: string): number | undefined {
  const path = join(dataDir, REVOKED_FILE);
  const stored = readPrivateJson(path, marker);
  if (stored) return stored.at;
  // A marker that does not parse still stands (it guards a secret, so it fails closed), dated by its file.
  return existsSync(path) ? statSync(path).mtimeMs : undefined;
}

export function liftRevocation(dataDir: string): void {
  removeFile(join(dataDir, REVOKED_FILE));
}

// The core socket's handshake, both ends: the relay's first line presents the token from core.json, the core answers
// one ok line, and from then on the connection is plain newline-delimited JSON-RPC.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { sameSecret } from '../bridge/secret-compare.js';
import type { FirstLineLimits } from './first-line.js';

/** What the core allows a peer before it has authenticated: one short line, soon. */
export const AUTH_LIMITS: FirstLineLimits = { maxBytes: 1024, timeoutMs: 2_000 };

const AuthSchema = z.strictObject({ auth: z.string() });
const OkSchema = z.strictObject({ ok: z.literal(true) });

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function authLine(token: string): string {
  return `${JSON.stringify({ auth: token })}\n`;
}

/** True when `line` is an auth line carrying `token`; junk and wrong tokens alike are false. */
export function presentsToken(line: string, token: string): boolean {
  const parsed = AuthSchema.safeParse(parseJson(line));
  return parsed.success && sameSecret(parsed.data.auth, token);
}

export const OK_LINE = `${JSON.stringify({ ok: true })}\n`;

export function isOkLine(line: string): boolean {
  return OkSchema.safeParse(parseJson(line)).success;
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

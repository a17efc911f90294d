// The bridge's use of the pairing store, without a socket: an attempt on the live code that the typed code either
// matches (both sides would prove with the same key) or not, and whether the store's secret is a given one.
import type { BridgeAuth } from '../../../electron/core/bridge/handshake.js';
import { codeKey } from '../../../shared/protocol/bridge-proof.js';
import { sameSecret } from '../../../electron/core/bridge/secret-compare.js';

/** What a pairing connection typed with `code` ends in: the new secret, or undefined (no live code, or no match). */
export async function redeemCode(auth: BridgeAuth, code: string): Promise<string | undefined> {
  const attempt = await auth.pairing();
  if (!attempt) return undefined;
  const typed = Buffer.from(await codeKey(code, attempt.salt)).toString('base64url');
  return sameSecret(typed, Buffer.from(attempt.key).toString('base64url')) ? attempt.redeem() : undefined;
}

/** True when `secret` is the store's current secret: what a hello proving with it would need. */
export async function holds(auth: BridgeAuth, secret: string): Promise<boolean> {
  const current = await auth.secret();
  return current !== undefined && sameSecret(secret, current);
}

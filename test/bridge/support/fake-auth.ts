// A pairing store double for the bridge tests (the real one lives in electron/core/pairing): one current secret,
// single-use pairing codes that mint and return a new secret, and a count of every question the bridge asked.
import { randomBytes } from 'node:crypto';
import type { BridgeAuth } from '../../../electron/core/bridge/handshake.js';
import { sameSecret } from '../../../electron/core/bridge/secret-compare.js';

export class FakeAuth implements BridgeAuth {
  secret = randomBytes(32).toString('base64url');
  readonly codes = new Set<string>();
  asked = 0;
  /** When set, the store fails with this message (to prove failures are reported without the secret). */
  failWith: string | undefined;

  async verifySecret(secret: string): Promise<boolean> {
    this.asked++;
    if (this.failWith !== undefined) throw new Error(this.failWith);
    return sameSecret(secret, this.secret);
  }

  async redeemCode(code: string): Promise<string | undefined> {
    this.asked++;
    if (this.failWith !== undefined) throw new Error(this.failWith);
    if (!this.codes.delete(code)) return undefined;
    this.secret = randomBytes(32).toString('base64url');
    return this.secret;
  }
}

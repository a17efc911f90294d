// A pairing store double for the bridge tests (the real one lives in electron/core/pairing): one current secret, one
// single-use pairing code whose attempts mint and return a new secret, and a count of every question the bridge asked.
import { randomBytes } from 'node:crypto';
import type { BridgeAuth, PairingAttempt } from '../../../electron/core/bridge/handshake.js';
import { codeKey } from '../../../shared/protocol/bridge-proof.js';

export class FakeAuth implements BridgeAuth {
  /** The current secret (the real store keeps it in the keychain or a 0600 file). */
  current = randomBytes(32).toString('base64url');
  /** Plays a store with no secret (never paired, or revoked). */
  unpaired = false;
  /** The live one-time code, if any. */
  code: string | undefined;
  asked = 0;
  /** When set, the store fails with this message (to prove failures are reported without the secret). */
  failWith: string | undefined;

  async secret(): Promise<string | undefined> {
    this.asked++;
    if (this.failWith !== undefined) throw new Error(this.failWith);
    return this.unpaired ? undefined : this.current;
  }

  async pairing(): Promise<PairingAttempt | undefined> {
    this.asked++;
    if (this.failWith !== undefined) throw new Error(this.failWith);
    const code = this.code;
    if (code === undefined) return undefined;
    const salt = randomBytes(16).toString('base64url');
    return {
      salt,
      key: await codeKey(code, salt),
      redeem: async () => {
        if (this.code !== code) return undefined;
        this.code = undefined;
        this.current = randomBytes(32).toString('base64url');
        return this.current;
      },
    };
  }
}

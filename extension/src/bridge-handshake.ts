// The extension's half of the mutual handshake: a fresh nonce in the hello (no secret, no code), then the server's
// proof is checked before anything of ours that depends on the secret or code is made, let alone sent. A server that
// fails gets nothing more on this connection (BridgeConnection closes it); a new dial starts with a new nonce.
import {
  codeKey,
  freshNonce,
  proofOf,
  secretKey,
  unwrapSecret,
  verifyProof,
  type ProofContext,
} from '../../shared/protocol/bridge-proof.js';
import { WIRE_VERSION, type CoreFrame, type ExtensionFrame } from '../../shared/protocol/wire.js';

export type Greeting = { kind: 'hello'; secret: string } | { kind: 'pair'; code: string };
type Challenge = Extract<CoreFrame, { type: 'challenge' }>;
type ExtensionInfo = Extract<ExtensionFrame, { type: 'hello' }>['ext'];

export class ExtensionHandshake {
  private readonly nonce = freshNonce();
  /** Set once the server proved itself: the key and context the pairing seal is opened with. */
  private proved: { key: Uint8Array; context: ProofContext } | undefined;
  private challenged = false;

  constructor(
    private readonly port: number,
    private readonly greeting: Greeting,
  ) {}

  get serverProved(): boolean {
    return this.proved !== undefined;
  }

  opening(ext: ExtensionInfo): ExtensionFrame {
    return { type: this.greeting.kind, v: WIRE_VERSION, nonce: this.nonce, ext };
  }

  /**
   * Our proof when the server's is right; undefined when it is not (or this is a second challenge, or a challenge of
   * the wrong kind): the caller then sends nothing and closes. Checked in constant time by crypto.subtle.verify.
   */
  async answer(challenge: Challenge): Promise<ExtensionFrame | undefined> {
    if (this.challenged) return undefined;
    this.challenged = true;
    const purpose = this.greeting.kind;
    // A pairing server must name the code's salt, a hello server must not: the wrong shape is a failed proof.
    if ((purpose === 'pair') !== (challenge.salt !== undefined)) return undefined;
    const context: ProofContext = { purpose, port: this.port, extensionNonce: this.nonce, coreNonce: challenge.nonce };
    try {
      const key =
        this.greeting.kind === 'hello'
          ? secretKey(this.greeting.secret)
          : await codeKey(this.greeting.code, challenge.salt!);
      if (!(await verifyProof(key, 'core', context, challenge.proof))) return undefined;
      this.proved = { key, context };
      return { type: 'proof', proof: await proofOf(key, 'extension', context) };
    } catch {
      return undefined;
    }
  }

  /** The new secret from `paired`, only from a server that proved the code; undefined if it does not open. */
  async unwrap(wrapped: string): Promise<string | undefined> {
    if (this.greeting.kind !== 'pair' || !this.proved) return undefined;
    return unwrapSecret(this.proved.key, this.proved.context, wrapped);
  }
}

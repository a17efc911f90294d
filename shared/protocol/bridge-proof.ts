// The bridge handshake's cryptography, one implementation for both ends (WebCrypto: the extension's worker and Node
// alike): fresh nonces, each side's HMAC-SHA256 proof over both nonces, the pairing code's key, and the new secret
// wrapped under that key. Neither the secret nor the code ever crosses the wire; only proofs bound to this one
// connection do (the README's "How the link is kept safe" says in what order, and what a rogue on the port learns).

const NONCE_BYTES = 32;
/** base64url of 32 bytes. */
export const NONCE_PATTERN = /^[\w-]{43}$/;
/** base64url of an HMAC-SHA256. */
export const PROOF_PATTERN = /^[\w-]{43}$/;

/**
 * The pairing code's key: PBKDF2-HMAC-SHA256 of the normalised code. A code has 40 bits, so a transcript holding a
 * proof made with it could be brute-forced offline; this many iterations make that take GPU-months against a code
 * that lives 2 minutes, and only the core ever proves with it first (the extension proves second, to a server that
 * proved already), so only a peer of the real core gets such a transcript, at most CODE_TRIES of them per code.
 */
export const CODE_KDF = { hash: 'SHA-256', iterations: 200_000, bytes: 32 } as const;

export type ProofSide = 'core' | 'extension';
/** `hello`: keyed by the long-lived pairing secret; `pair`: by the one-time code's key. */
export type ProofPurpose = 'hello' | 'pair';

export interface ProofContext {
  purpose: ProofPurpose;
  /** The bridge's port, as the extension dialled it and as the core listens: a relay on another port cannot pass a proof on. */
  port: number;
  extensionNonce: string;
  coreNonce: string;
}

const encoder = new TextEncoder();

export function freshNonce(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(NONCE_BYTES)));
}

/** What the person types: case, spaces and dashes do not matter. */
export function normaliseCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

/** The key a pairing code and the core's salt give (the core derives the same with Node's pbkdf2 when it issues it). */
export async function codeKey(code: string, salt: string): Promise<Uint8Array> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(normaliseCode(code)), 'PBKDF2', false, [
    'deriveBits',
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: CODE_KDF.hash, iterations: CODE_KDF.iterations, salt: fromBase64Url(salt) },
    material,
    CODE_KDF.bytes * 8,
  );
  return new Uint8Array(bits);
}

/** A long-lived secret as HMAC key material: its UTF-8 bytes, as the core socket's handshake uses its token. */
export function secretKey(secret: string): Uint8Array {
  return encoder.encode(secret);
}

/**
 * One side's proof. The side's name, the purpose, the port and both nonces are all signed: a proof one side made can
 * never be played back as the other's, nor on another connection (the peer's nonce is fresh), nor through a relay.
 */
export async function proofOf(key: Uint8Array, side: ProofSide, context: ProofContext): Promise<string> {
  const signed = await crypto.subtle.sign('HMAC', await hmacKey(key, 'sign'), encoder.encode(label(side, context)));
  return toBase64Url(new Uint8Array(signed));
}

/** True when `presented` is `side`'s proof; crypto.subtle.verify compares in constant time. */
export async function verifyProof(
  key: Uint8Array,
  side: ProofSide,
  context: ProofContext,
  presented: string,
): Promise<boolean> {
  if (!PROOF_PATTERN.test(presented)) return false;
  return crypto.subtle.verify(
    'HMAC',
    await hmacKey(key, 'verify'),
    fromBase64Url(presented),
    encoder.encode(label(side, context)),
  );
}

/** The new secret, for the extension only: AES-256-GCM under a key from the code's key and this connection's nonces. */
export async function wrapSecret(key: Uint8Array, context: ProofContext, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv },
    await wrappingKey(key, context),
    encoder.encode(secret),
  );
  return toBase64Url(concat(iv, new Uint8Array(sealed)));
}

/** The secret `wrapSecret` sealed, or undefined when it was sealed under another key or altered (GCM's tag fails). */
export async function unwrapSecret(
  key: Uint8Array,
  context: ProofContext,
  wrapped: string,
): Promise<string | undefined> {
  try {
    const bytes = fromBase64Url(wrapped);
    if (bytes.length <= 12 + 16) return undefined;
    const opened = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.slice(0, 12) },
      await wrappingKey(key, context),
      bytes.slice(12),
    );
    return new TextDecoder('utf-8', { fatal: true }).decode(opened);
  } catch {
    return undefined;
  }
}

function label(side: ProofSide | 'wrap', { purpose, port, extensionNonce, coreNonce }: ProofContext): string {
  return `chrome-mcp bridge v2|${side}|${purpose}|127.0.0.1:${port}|${extensionNonce}|${coreNonce}`;
}

function hmacKey(key: Uint8Array, use: 'sign' | 'verify'): Promise<CryptoKey> {
  // A copy: WebCrypto takes only memory of its own kind (not a Node Buffer's shared pool, say).
  return crypto.subtle.importKey('raw', new Uint8Array(key), { name: 'HMAC', hash: 'SHA-256' }, false, [use]);
}

async function wrappingKey(key: Uint8Array, context: ProofContext): Promise<CryptoKey> {
  const raw = await crypto.subtle.sign('HMAC', await hmacKey(key, 'sign'), encoder.encode(label('wrap', context)));
  return crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

// Hand-written: the worker has no Buffer, and Uint8Array.toBase64 is not in every Chrome this extension supports.
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

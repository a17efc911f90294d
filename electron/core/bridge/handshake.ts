// Authenticates a new connection before anything else is read from it, both ways: the extension's hello (or pair)
// brings its nonce and our extension id; the core proves first that it holds the pairing secret (or the live code's
// key), then the extension proves it too, all within the handshake deadline and the pre-auth byte budget. Anything else
// is answered `unauthorized` and closed. The bridge has the last word (see admit).
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import { z } from 'zod';
import {
  freshNonce,
  proofOf,
  type ProofContext,
  secretKey,
  wrapSecret,
} from '../../../shared/protocol/bridge-proof.js';
import { decodeFrame, helloFrame, pairFrame, proofFrame, WIRE_VERSION } from '../../../shared/protocol/wire.js';
import type { Log } from '../log.js';
import { frameText, refuseConnection, sendFrame, type UnauthorizedReason } from './frame-io.js';
import { PRE_AUTH_MAX_BYTES } from './limits.js';
import { sameSecret } from './secret-compare.js';

/** One pairing attempt against the live code: it has already spent one of the code's tries. */
export interface PairingAttempt {
  /** base64url; sent to the extension so it can derive the same key from the code the person typed. */
  salt: string;
  /** The code's key (CODE_KDF): the HMAC key of both proofs and of the new secret's seal. */
  key: Uint8Array;
  /** Once the extension has proved the code: spends it and mints the new secret; undefined when it was withdrawn. */
  redeem(): Promise<string | undefined>;
}

/** The pairing store as the bridge sees it (electron/core/pairing implements it). Nothing from it goes on the wire. */
export interface BridgeAuth {
  /** The current pairing secret, read afresh; undefined when there is none (never paired, or revoked). */
  secret(): Promise<string | undefined>;
  /** Opens an attempt against the live pairing code; undefined when none is live (never issued, used, expired, spent). */
  pairing(): Promise<PairingAttempt | undefined>;
}

export type ExtensionInfo = z.infer<typeof helloFrame>['ext'];

export interface HandshakeOptions {
  auth: BridgeAuth;
  extensionId: string;
  /** The port this bridge listens on: both proofs name it. */
  port: number;
  helloTimeoutMs: number;
  log: Log;
  /** An extension built for wire version `v`, not ours, was refused: for bridge.json, so `doctor` can name it. */
  otherVersion?: (v: number) => void;
}

/** A connection that passed: who it is, and the new secret, already sealed, when it paired with a code. */
export interface Admission {
  ext: ExtensionInfo;
  wrappedSecret?: string;
}

class Refused extends Error {
  constructor(
    readonly reason: UnauthorizedReason,
    why: string,
  ) {
    super(why);
  }
}

// Just enough of a frame to tell an extension built for another wire version from junk.
const versionProbe = z.object({ type: z.enum(['hello', 'pair']), v: z.number() });

/** The admission once authenticated; undefined when the connection was refused or went away (already closed). */
export function handshake(socket: WebSocket, raw: Duplex, options: HandshakeOptions): Promise<Admission | undefined> {
  const { log, helloTimeoutMs } = options;
  return new Promise((resolve) => {
    let settled = false;
    let received = 0;
    let awaiting: ((text: string | undefined) => void) | undefined;
    const finish = (admission?: Admission) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      raw.off('data', count);
      socket.off('message', message);
      socket.off('close', closed);
      awaiting?.(undefined);
      resolve(admission);
    };
    const refuse = (reason: UnauthorizedReason, why: string) => {
      if (settled) return;
      log(`bridge: refused an extension connection: ${why}`);
      refuseConnection(socket, reason);
      finish();
    };
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= PRE_AUTH_MAX_BYTES) return;
      log(`bridge: refused an extension connection: more than ${PRE_AUTH_MAX_BYTES} bytes before authenticating`);
      socket.terminate();
      finish();
    };
    let hungUp = false;
    const closed = () => {
      hungUp = true;
      finish();
    };
    // Frames are taken in order, one per step. One sent ahead of its step (a proof before the challenge it would have
    // to answer) is judged at that step, and cannot be right; nothing after a refusal is read at all.
    const queue: Array<string | undefined> = [];
    const message = (data: RawData, isBinary: boolean) => {
      // Binary is no frame of ours: as empty text it fails to decode, like any other junk.
      const text = frameText(data, isBinary) ?? '';
      const take = awaiting;
      awaiting = undefined;
      if (take) take(text);
      else queue.push(text);
    };
    const next = () =>
      new Promise<string | undefined>((wake) => {
        if (settled) return wake(undefined);
        if (queue.length > 0) return wake(queue.shift());
        awaiting = wake;
      });
    const timer = setTimeout(() => refuse('timeout', `no valid handshake within ${helloTimeoutMs} ms`), helloTimeoutMs);
    raw.on('data', count);
    socket.on('message', message);
    socket.on('close', closed);
    authenticate(socket, { next, hungUp: () => hungUp }, options).then(
      (admission) => {
        if (admission) finish(admission);
        else finish();
      },
      (error: unknown) => {
        if (settled) return;
        if (error instanceof Refused) return refuse(error.reason, error.message);
        log(
          `bridge: could not check an extension connection: ${error instanceof Error ? error.message : String(error)}`,
        );
        // Not `unauthorized`: the extension did nothing wrong and should simply retry.
        socket.close(1011, 'pairing store unavailable');
        finish();
      },
    );
  });
}

/** Undefined: the peer went away (or the deadline passed) mid-way. */
/** The frames of one connection, in order, and whether the peer has hung up. */
interface FrameReader {
  next(): Promise<string | undefined>;
  hungUp(): boolean;
}

async function authenticate(
  socket: WebSocket,
  reader: FrameReader,
  options: HandshakeOptions,
): Promise<Admission | undefined> {
  const text = await reader.next();
  if (text === undefined) return undefined;
  const first = decodeFrame(helloFrame, text) ?? decodeFrame(pairFrame, text);
  if (!first) {
    const probe = decodeFrame(versionProbe, text);
    if (probe && probe.v !== WIRE_VERSION) {
      options.otherVersion?.(probe.v);
      const older =
        probe.v < WIRE_VERSION
          ? ': the extension is older than the app; reload it from `chrome-mcp extension-path`'
          : '';
      throw new Refused('bad_version', `it speaks wire v${probe.v}, this core v${WIRE_VERSION}${older}`);
    }
    throw new Refused('bad_frame', 'its first frame was not a valid hello or pair');
  }
  // The id is checked before the store is asked, so a stranger cannot even spend a pairing code's tries.
  if (first.ext.id !== options.extensionId)
    throw new Refused('bad_origin', `its hello names extension ${JSON.stringify(first.ext.id)}, not ours`);
  const context = (purpose: ProofContext['purpose']): ProofContext => ({
    purpose,
    port: options.port,
    extensionNonce: first.nonce,
    coreNonce: freshNonce(),
  });

  if (first.type === 'hello') {
    const secret = await options.auth.secret();
    if (secret === undefined) throw new Refused('bad_secret', 'no pairing secret exists (never paired, or revoked)');
    const proved = await challenge(socket, reader, options, secretKey(secret), context('hello'));
    if (proved === undefined) return undefined;
    if (!proved) throw new Refused('bad_secret', 'it did not prove it holds the pairing secret');
    return { ext: first.ext };
  }

  const attempt = await options.auth.pairing();
  if (!attempt) throw new Refused('bad_code', 'no pairing code is live (used, expired or out of tries)');
  const pairContext = context('pair');
  const proved = await challenge(socket, reader, options, attempt.key, pairContext, attempt.salt);
  if (proved === undefined) return undefined;
  if (!proved) throw new Refused('bad_code', 'it did not prove it knows the pairing code');
  const secret = await attempt.redeem();
  if (secret === undefined) throw new Refused('bad_code', 'the pairing code was withdrawn while it was being checked');
  return { ext: first.ext, wrappedSecret: await wrapSecret(attempt.key, pairContext, secret) };
}

/**
 * Sends the core's proof, then judges the extension's: true when it holds `key`, false when its answer is wrong,
 * undefined when it went away first. One answer only: a wrong one ends the connection.
 */
async function challenge(
  socket: WebSocket,
  reader: FrameReader,
  options: HandshakeOptions,
  key: Uint8Array,
  context: ProofContext,
  salt?: string,
): Promise<boolean | undefined> {
  const proof = await proofOf(key, 'core', context);
  sendFrame(socket, { type: 'challenge', nonce: context.coreNonce, proof, ...(salt === undefined ? {} : { salt }) });
  const text = await reader.next();
  if (text === undefined) {
    // Said only for a hang-up: a deadline or a byte limit already said why it ended.
    if (reader.hungUp())
      options.log(
        `bridge: an extension connection hung up before proving itself: it does not hold this core's ${context.purpose === 'hello' ? 'secret' : 'code'}, or did not trust this core`,
      );
    return undefined;
  }
  const answer = decodeFrame(proofFrame, text);
  // Constant time, like every comparison with something derived from the secret.
  return answer !== undefined && sameSecret(answer.proof, await proofOf(key, 'extension', context));
}

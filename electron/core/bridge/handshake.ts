// Authenticates a new connection before anything else is read from it: its first frame must be a valid `hello`
// (the pairing secret) or `pair` (a one-time code) from our extension id, within the hello deadline and the
// pre-auth byte budget. Anything else is answered `unauthorized` and closed. The bridge has the last word (see admit).
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import { z } from 'zod';
import { decodeFrame, helloFrame, pairFrame, WIRE_VERSION } from '../../../shared/protocol/wire.js';
import type { Log } from '../log.js';
import { frameText, refuseConnection, type UnauthorizedReason } from './frame-io.js';
import { PRE_AUTH_MAX_BYTES } from './limits.js';

/** The pairing store as the bridge sees it (electron/core/pairing implements it). */
export interface BridgeAuth {
  /** True when `secret` is the current pairing secret; compared in constant time (see secret-compare.ts). */
  verifySecret(secret: string): Promise<boolean>;
  /** The NEW long-lived secret when `code` is a valid one-time pairing code, else undefined. */
  redeemCode(code: string): Promise<string | undefined>;
}

export type ExtensionInfo = z.infer<typeof helloFrame>['ext'];

export interface HandshakeOptions {
  auth: BridgeAuth;
  extensionId: string;
  helloTimeoutMs: number;
  log: Log;
}

/** A connection that passed: who it is, and the new secret when it paired with a code (not yet sent to it). */
export interface Admission {
  ext: ExtensionInfo;
  pairedSecret?: string;
}

type Verdict = Admission | { refuse: UnauthorizedReason; why: string };

// Just enough of a frame to tell an extension built for another wire version from junk.
const versionProbe = z.object({ type: z.enum(['hello', 'pair']), v: z.number() });

/** The admission once authenticated; undefined when the connection was refused or went away (already closed). */
export function handshake(socket: WebSocket, raw: Duplex, options: HandshakeOptions): Promise<Admission | undefined> {
  const { log, helloTimeoutMs } = options;
  return new Promise((resolve) => {
    let settled = false;
    let received = 0;
    const finish = (admission?: Admission) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      raw.off('data', count);
      socket.off('message', first);
      socket.off('close', closed);
      resolve(admission);
    };
    const refuse = (reason: UnauthorizedReason, why: string) => {
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
    const closed = () => finish();
    // Only the first frame is read; whatever else arrives before the verdict is ignored, never processed.
    const first = (data: RawData, isBinary: boolean) => {
      socket.off('message', first);
      judge(frameText(data, isBinary), options).then(
        (verdict) => {
          if (settled) return;
          if ('refuse' in verdict) return refuse(verdict.refuse, verdict.why);
          finish(verdict);
        },
        (error: unknown) => {
          if (settled) return;
          log(`bridge: could not check an extension connection: ${error instanceof Error ? error.message : String(error)}`);
          // Not `unauthorized`: the extension did nothing wrong and should simply retry.
          socket.close(1011, 'pairing store unavailable');
          finish();
        },
      );
    };
    const timer = setTimeout(() => refuse('timeout', `no valid hello within ${helloTimeoutMs} ms`), helloTimeoutMs);
    raw.on('data', count);
    socket.on('message', first);
    socket.on('close', closed);
  });
}

async function judge(text: string | undefined, options: HandshakeOptions): Promise<Verdict> {
  const hello = text === undefined ? undefined : decodeFrame(helloFrame, text);
  const pair = text === undefined || hello ? undefined : decodeFrame(pairFrame, text);
  const first = hello ?? pair;
  if (!first) {
    const probe = text === undefined ? undefined : decodeFrame(versionProbe, text);
    if (probe && probe.v !== WIRE_VERSION) return { refuse: 'bad_version', why: `it speaks wire v${probe.v}, this core v${WIRE_VERSION}` };
    return { refuse: 'bad_frame', why: 'its first frame was not a valid hello or pair' };
  }
  // The id is checked before the store is asked, so a stranger cannot even spend a pairing code's tries.
  if (first.ext.id !== options.extensionId) {
    return { refuse: 'bad_origin', why: `its hello names extension ${JSON.stringify(first.ext.id)}, not ours` };
  }
  if (first.type === 'hello') {
    const valid = await ask(() => options.auth.verifySecret(first.secret), first.secret);
    return valid ? { ext: first.ext } : { refuse: 'bad_secret', why: 'wrong secret' };
  }
  const secret = await ask(() => options.auth.redeemCode(first.code), first.code);
  return secret === undefined ? { refuse: 'bad_code', why: 'wrong, used or expired pairing code' } : { ext: first.ext, pairedSecret: secret };
}

/** Asks the pairing store; its failure is rethrown with whatever was presented scrubbed out, since it gets logged. */
async function ask<T>(question: () => Promise<T>, presented: string): Promise<T> {
  try {
    return await question();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(message.split(presented).join('[redacted]'));
  }
}

// doctor's look at what listens on a bridge port, as the extension would see it: it says hello with a fresh nonce and
// checks the server's proof against this data dir's pairing secret, then hangs up without proving anything itself.
import { WebSocket } from 'ws';
import { freshNonce, secretKey, verifyProof } from '../../../shared/protocol/bridge-proof.js';
import { EXTENSION_ID, EXTENSION_ORIGIN } from '../../../shared/protocol/extension-id.js';
import { challengeFrame, decodeFrame, unauthorizedFrame, WIRE_VERSION } from '../../../shared/protocol/wire.js';

/**
 * `proved`: it holds the secret (our core). `failed`: it answered with a proof that does not hold, the extension
 * refuses it. `refused`: it answered `unauthorized` before proving anything (a core with no secret, say).
 * `other-version`: it refused our hello as another wire version (a chrome-mcp core from before or after ours).
 * `mute`: no handshake at all (not a WebSocket, closed, or silent).
 */
export type ProbeVerdict = 'proved' | 'failed' | 'refused' | 'other-version' | 'mute';

const PROBE_TIMEOUT_MS = 3_000;

export function probeBridge(port: number, secret: string): Promise<ProbeVerdict> {
  return new Promise((resolve) => {
    const nonce = freshNonce();
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, {
      origin: EXTENSION_ORIGIN,
      handshakeTimeout: PROBE_TIMEOUT_MS,
      maxPayload: 64 * 1024,
    });
    const done = (verdict: ProbeVerdict) => {
      clearTimeout(timer);
      socket.removeAllListeners('close');
      socket.terminate();
      resolve(verdict);
    };
    const timer = setTimeout(() => done('mute'), PROBE_TIMEOUT_MS);
    socket.on('error', () => done('mute'));
    socket.on('close', () => done('mute'));
    socket.on('open', () => {
      const ext = { id: EXTENSION_ID, version: 'chrome-mcp doctor', chrome: 'none' };
      socket.send(JSON.stringify({ type: 'hello', v: WIRE_VERSION, nonce, ext }));
    });
    socket.once('message', (data: Buffer) => {
      const text = data.toString('utf8');
      const challenge = decodeFrame(challengeFrame, text);
      if (!challenge) {
        const refusal = decodeFrame(unauthorizedFrame, text);
        return done(!refusal ? 'failed' : refusal.reason === 'bad_version' ? 'other-version' : 'refused');
      }
      const context = { purpose: 'hello' as const, port, extensionNonce: nonce, coreNonce: challenge.nonce };
      void verifyProof(secretKey(secret), 'core', context, challenge.proof).then(
        (held) => done(held ? 'proved' : 'failed'),
        () => done('failed'),
      );
    });
  });
}

// The mutual handshake under attack, from the extension's side of the socket: the core proves itself first and gets
// no secret or code; a proof replayed from another connection, sent before the challenge, or made for another port
// (a relay) is refused; a store with no secret or code gives out no proof at all; and the sealed secret opens only
// with the code, on that one connection.
import { describe, expect, it } from 'vitest';
import { freshNonce, proofOf, secretKey, unwrapSecret, verifyProof } from '../../shared/protocol/bridge-proof.js';
import { CLOSE_CODES } from '../../shared/protocol/wire.js';
import { startBridge } from './support/bridge-harness.js';
import { EXT, helloText } from './support/peer.js';

describe('the bridge handshake', () => {
  it('proves the core first, over a nonce of its own, before the peer has proved anything', async () => {
    const { bridge, auth, dial } = await startBridge();
    const challenges = [];
    for (let i = 0; i < 2; i++) {
      const peer = await dial();
      const nonce = freshNonce();
      peer.sendText(helloText(nonce));
      const challenge = await peer.next('challenge');
      const context = {
        purpose: 'hello' as const,
        port: bridge.port,
        extensionNonce: nonce,
        coreNonce: challenge.nonce,
      };
      expect(await verifyProof(secretKey(auth.current), 'core', context, challenge.proof)).toBe(true);
      // It is the core's proof, not one the peer could send back as its own.
      expect(await verifyProof(secretKey(auth.current), 'extension', context, challenge.proof)).toBe(false);
      challenges.push(challenge);
    }
    expect(challenges[0]!.nonce).not.toBe(challenges[1]!.nonce);
    expect(challenges[0]!.proof).not.toBe(challenges[1]!.proof);
  });

  it('refuses an extension proof replayed from another connection, even with the same hello', async () => {
    const { auth, dial } = await startBridge();
    const honest = await dial();
    const nonce = freshNonce();
    honest.sendText(helloText(nonce));
    const first = await honest.next('challenge');
    const proof = await proofOf(secretKey(auth.current), 'extension', {
      purpose: 'hello',
      port: honest.port,
      extensionNonce: nonce,
      coreNonce: first.nonce,
    });
    honest.send({ type: 'proof', proof });
    await honest.next('welcome');

    const replay = await dial();
    replay.sendText(helloText(nonce));
    await replay.next('challenge');
    replay.send({ type: 'proof', proof });
    expect(await replay.next('unauthorized')).toEqual({ type: 'unauthorized', reason: 'bad_secret' });
    expect((await replay.closed).code).toBe(CLOSE_CODES.unauthorized);
  });

  it('refuses a proof sent ahead of its challenge: it cannot have been made for it', async () => {
    const { auth, dial, bridge } = await startBridge();
    const peer = await dial();
    const nonce = freshNonce();
    peer.sendText(helloText(nonce));
    peer.send({
      type: 'proof',
      proof: await proofOf(secretKey(auth.current), 'extension', {
        purpose: 'hello',
        port: peer.port,
        extensionNonce: nonce,
        coreNonce: nonce,
      }),
    });
    await peer.next('challenge');
    expect(await peer.next('unauthorized')).toEqual({ type: 'unauthorized', reason: 'bad_secret' });
    expect(bridge.link()).toBeUndefined();
  });

  it('refuses proofs made for another port, as a relay between the extension and the core would pass them on', async () => {
    const { auth, dial, bridge } = await startBridge();
    const peer = await dial();
    const { coreProved } = await peer.greet(auth.current, { port: bridge.port + 1 });
    // Checked against the port it dialled, the extension would refuse the core's proof relayed to it as well.
    expect(coreProved).toBe(false);
    expect(await peer.next('unauthorized')).toEqual({ type: 'unauthorized', reason: 'bad_secret' });
  });

  it('gives out no proof when there is no secret or no live code to prove with', async () => {
    const { auth, dial } = await startBridge();
    auth.unpaired = true;
    const hello = await dial();
    hello.sendText(helloText());
    expect(await hello.next('unauthorized')).toEqual({ type: 'unauthorized', reason: 'bad_secret' });
    const pair = await dial();
    pair.sendText(helloText(undefined, EXT, 'pair'));
    expect(await pair.next('unauthorized')).toEqual({ type: 'unauthorized', reason: 'bad_code' });
    expect([...hello.frames, ...pair.frames]).toEqual([]);
  });

  it('refuses a wrong code without pairing, and the right one still pairs', async () => {
    const { auth, dial } = await startBridge();
    auth.code = 'K7Q2-9XRT';
    const before = auth.current;
    const wrong = await dial();
    const { coreProved } = await wrong.greet('K7Q2-9XRU', { purpose: 'pair' });
    expect(coreProved).toBe(false);
    expect(await wrong.next('unauthorized')).toEqual({ type: 'unauthorized', reason: 'bad_code' });
    expect(wrong.frames).toEqual([]);
    expect(auth.current).toBe(before);
    expect(await (await dial()).pair('K7Q2-9XRT')).toBe(auth.current);
  });

  it('seals the new secret: it is not in the paired frame, and opens with nothing but the code on that connection', async () => {
    const { auth, dial } = await startBridge();
    auth.code = 'K7Q2-9XRT';
    const peer = await dial();
    const raw: string[] = [];
    peer.socket.on('message', (data) => raw.push(data.toString()));
    const greeted = await peer.greet('K7Q2-9XRT', { purpose: 'pair' });
    const { wrapped } = await peer.next('paired');
    expect(raw.join('\n')).not.toContain(auth.current);
    expect(await unwrapSecret(greeted.key, greeted.context, wrapped)).toBe(auth.current);
    expect(await unwrapSecret(greeted.key, { ...greeted.context, coreNonce: freshNonce() }, wrapped)).toBeUndefined();
    expect(await unwrapSecret(secretKey('K7Q2-9XRT'), greeted.context, wrapped)).toBeUndefined();
  });
});

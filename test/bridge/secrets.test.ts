// No secret or pairing code ever appears in a log line, an error the model could read, a close reason, or on the wire
// — across every path that handles one: success, wrong secret, pairing, wrong and spent code, store failure,
// replacement, disconnect.
// And the constant-time compare the pairing store uses answers correctly for every length.
import { describe, expect, it } from 'vitest';
import { sameSecret } from '../../electron/core/bridge/secret-compare.js';
import { startBridge } from './support/bridge-harness.js';
import { EXT, helloText } from './support/peer.js';

describe('secrets stay out of logs and errors', () => {
  it('across every path that handles a secret or a code', async () => {
    const { bridge, auth, lines, dial, connect } = await startBridge({ helloTimeoutMs: 1_000 });
    const seen: string[] = [];
    const texts: string[] = [];
    const note = (error: unknown) => texts.push(String(error), (error as { next?: string }).next ?? '');
    const closeReason = async (peer: Awaited<ReturnType<typeof dial>>) => texts.push((await peer.closed).reason);

    seen.push(auth.current);
    const first = await connect();
    const waiting = bridge.link()!.call('snapshot', {}).catch(note);

    const wrongSecret = 'WRONG-secret-7d1c0f9e2b';
    seen.push(wrongSecret);
    const wrong = await dial();
    await wrong.greet(wrongSecret);
    await closeReason(wrong);

    auth.code = 'CODE-4821';
    seen.push('CODE-4821', 'CODE4821');
    const mistyped = await dial();
    await mistyped.greet('CODE-4822', { purpose: 'pair' });
    await closeReason(mistyped);
    const pairing = await dial();
    seen.push(await pairing.pair('CODE-4821'));
    await pairing.next('welcome');
    await waiting;
    await closeReason(first);

    const spent = await dial();
    spent.sendText(helloText(undefined, EXT, 'pair'));
    await closeReason(spent);

    auth.failWith = 'store exploded';
    const failing = await dial();
    failing.sendText(helloText());
    await closeReason(failing);
    auth.failWith = undefined;

    const pendingOnClose = bridge.link()!.call('tabs', {}).catch(note);
    pairing.socket.terminate();
    await pendingOnClose;

    const afterwards = await connect();
    await bridge.link()!.call('tabs', {}, { timeoutMs: 50 }).catch(note);
    afterwards.close();

    expect(lines.length).toBeGreaterThan(8);
    expect(texts.length).toBeGreaterThan(6);
    // What the core sent on every one of those sockets, too: proofs and seals, never a secret or a code.
    const wire = [first, wrong, mistyped, pairing, spent, failing, afterwards].flatMap((peer) =>
      peer.frames.map((frame) => JSON.stringify(frame)),
    );
    for (const secret of seen) {
      for (const line of [...lines, ...texts, ...wire]) expect(line).not.toContain(secret);
    }
  });
});

describe('sameSecret', () => {
  it('is true only for the identical string, whatever the lengths', () => {
    const stored = 'b'.repeat(43);
    expect(sameSecret(stored, stored)).toBe(true);
    expect(sameSecret(`${stored}x`, stored)).toBe(false);
    expect(sameSecret(stored.slice(1), stored)).toBe(false);
    expect(sameSecret('', stored)).toBe(false);
    expect(sameSecret('a'.repeat(10_000), stored)).toBe(false);
    expect(sameSecret('é', 'é')).toBe(true);
    expect(sameSecret('e\u0301', 'é')).toBe(false);
  });
});

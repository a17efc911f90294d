// No secret or pairing code ever appears in a log line, an error the model could read, or a close reason — across
// every path that handles one: success, wrong secret, pairing, spent code, store failure, replacement, disconnect.
// And the constant-time compare the pairing store uses answers correctly for every length.
import { describe, expect, it } from 'vitest';
import { sameSecret } from '../../electron/core/bridge/secret-compare.js';
import { WIRE_VERSION } from '../../shared/protocol/wire.js';
import { startBridge } from './support/bridge-harness.js';
import { EXT, helloText } from './support/peer.js';

describe('secrets stay out of logs and errors', () => {
  it('across every path that handles a secret or a code', async () => {
    const { bridge, auth, lines, dial, connect } = await startBridge({ helloTimeoutMs: 1_000 });
    const seen: string[] = [];
    const texts: string[] = [];
    const note = (error: unknown) => texts.push(String(error), (error as { next?: string }).next ?? '');
    const closeReason = async (peer: Awaited<ReturnType<typeof dial>>) => texts.push((await peer.closed).reason);

    seen.push(auth.secret);
    const first = await connect();
    const waiting = bridge.link()!.call('snapshot', {}).catch(note);

    const wrongSecret = 'WRONG-secret-7d1c0f9e2b';
    seen.push(wrongSecret);
    const wrong = await dial();
    wrong.sendText(helloText(wrongSecret));
    await closeReason(wrong);

    auth.codes.add('CODE-4821');
    seen.push('CODE-4821');
    const pairing = await dial();
    pairing.send({ type: 'pair', v: WIRE_VERSION, code: 'CODE-4821', ext: EXT });
    seen.push((await pairing.next('paired')).secret);
    await pairing.next('welcome');
    await waiting;
    await closeReason(first);

    const spent = await dial();
    spent.send({ type: 'pair', v: WIRE_VERSION, code: 'CODE-4821', ext: EXT });
    await closeReason(spent);

    const failingSecret = 'FAILING-secret-93ab';
    seen.push(failingSecret);
    auth.failWith = `store exploded on ${failingSecret}`;
    const failing = await dial();
    failing.sendText(helloText(failingSecret));
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
    for (const secret of seen) {
      for (const line of [...lines, ...texts]) expect(line).not.toContain(secret);
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

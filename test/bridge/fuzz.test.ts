// Thousands of generated hostile frames: before authentication each connection is refused and closed, after it every
// frame is dropped while the link keeps serving; oversized and over-fragmented messages end only their own connection.
// Throughout, the bridge never crashes and keeps serving the real extension.
import { describe, expect, it } from 'vitest';
import { CLOSE_CODES, MAX_FRAME_BYTES } from '../../shared/protocol/wire.js';
import { PRE_AUTH_MAX_BYTES } from '../../electron/core/bridge/limits.js';
import { startBridge } from './support/bridge-harness.js';
import { seeded } from '../support/seeded-random.js';
import { junkGenerator } from './support/junk.js';
import { ok, type Peer } from './support/peer.js';
import { rawUpgrade } from './support/raw-dial.js';

const SEED = 0x5eed;

describe('bridge under hostile frames', () => {
  it('refuses and closes every connection whose first frames are junk, and still serves the real extension', async () => {
    const { bridge, auth, dial, connect } = await startBridge();
    const junk = junkGenerator(SEED, { maxBytes: PRE_AUTH_MAX_BYTES / 4 });
    const connections = 1_500;
    const framesEach = 3;
    const closeCodes = new Map<number, number>();
    const kinds = new Set<string>();
    let linked = 0;
    bridge.on('connected', () => linked++);

    const one = async () => {
      const peer = await dial();
      for (let i = 0; i < framesEach; i++) {
        const frame = junk.next();
        if (i === 0) kinds.add(frame.kind);
        peer.sendText(frame.data, frame.binary);
      }
      const { code } = await peer.closed;
      closeCodes.set(code, (closeCodes.get(code) ?? 0) + 1);
      // Never admitted: at most the core's challenge to a well-formed hello, and the refusal, came back.
      expect(peer.frames.every((frame) => frame.type === 'unauthorized' || frame.type === 'challenge')).toBe(true);
    };
    // Eight at a time: under the cap on connections still authenticating, and enough to overlap handshakes.
    for (let done = 0; done < connections; done += 8) await Promise.all(Array.from({ length: 8 }, one));

    expect(kinds.size).toBe(junk.kinds);
    expect([...closeCodes.keys()].every((code) => code === CLOSE_CODES.unauthorized)).toBe(true);
    expect(linked).toBe(0);
    expect(bridge.link()).toBeUndefined();
    // Only well-formed hellos and pairs ever reached the store.
    expect(auth.asked).toBeLessThan(connections);
    expect(auth.asked).toBeGreaterThan(0);

    const real = await connect();
    real.serve((command) => ok(command, 'served'));
    expect(await bridge.link()!.call('tabs', {})).toEqual({ text: 'served' });
  }, 60_000);

  it('ends every connection that writes raw protocol junk, or a frame that never finishes, and keeps serving', async () => {
    const { bridge, connect } = await startBridge({ helloTimeoutMs: 300 });
    const random = seeded(SEED + 2);
    const ends: number[] = [];
    const one = async () => {
      const { socket, ended } = await rawUpgrade(bridge.port);
      const started = performance.now();
      // Random frame headers and payloads: reserved bits and opcodes, unmasked frames, lengths that lie.
      socket.write(
        Buffer.from(Array.from({ length: 1 + Math.floor(random() * 2048) }, () => Math.floor(random() * 256))),
      );
      ends.push((await ended) - started);
    };
    for (let done = 0; done < 400; done += 8) await Promise.all(Array.from({ length: 8 }, one));

    // A masked text frame header announcing 60 KiB, then nothing: only the hello deadline can end it.
    const { socket, ended } = await rawUpgrade(bridge.port);
    const started = performance.now();
    socket.write(Buffer.from([0x81, 0xfe, 0xf0, 0x00, 1, 2, 3, 4, 0x7b]));
    const slow = (await ended) - started;
    expect(slow).toBeGreaterThanOrEqual(250);
    // The close handshake it never answers is cut off by ws's closeTimeout (1 s).
    expect(slow).toBeLessThan(300 + 1_000 + 500);
    expect(Math.max(...ends)).toBeLessThan(300 + 1_000 + 500);
    expect(bridge.link()).toBeUndefined();

    const real = await connect();
    real.serve((command) => ok(command, 'served'));
    expect(await bridge.link()!.call('tabs', {})).toEqual({ text: 'served' });
  }, 60_000);

  it('drops thousands of junk frames on the authenticated link, which keeps serving without a reconnect', async () => {
    const { bridge, connect, lines } = await startBridge();
    const peer = await connect();
    peer.serve((command) => ok(command, `ok ${command.id}`));
    const link = bridge.link()!;
    const junk = junkGenerator(SEED + 1, { maxBytes: 256 * 1024 });
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 250; i++) {
        const frame = junk.next();
        peer.sendText(frame.data, frame.binary);
      }
      const answer = await link.call('get_text', { round });
      expect(answer.text).toMatch(/^ok \d+$/);
    }
    expect(bridge.link()).toBe(link);
    expect(link.open).toBe(true);
    // Logged at the 1st, 10th, 100th and 1000th drop, not 5000 times.
    const dropLines = lines.filter((line) => line.includes('dropped'));
    expect(dropLines.map((line) => /dropped (\d+)/.exec(line)?.[1])).toEqual(['1', '10', '100', '1000']);
  }, 60_000);

  it('accepts a frame right at the size bound, closes the connection (1009) on one byte more, and serves the next', async () => {
    const { bridge, connect } = await startBridge();
    const peer = await connect();
    const envelope = (id: string, size: number) => {
      const shell = JSON.stringify({
        type: 'result',
        id,
        ok: true,
        result: { text: '', image: { data: '', mimeType: 'image/png' } },
      });
      return JSON.stringify({
        type: 'result',
        id,
        ok: true,
        result: { text: '', image: { data: 'A'.repeat(size - shell.length), mimeType: 'image/png' } },
      });
    };
    peer.serve((command) => envelope(command.id, MAX_FRAME_BYTES));
    const full = await bridge.link()!.call('screenshot', {});
    expect(full.image?.data.length).toBeGreaterThan(MAX_FRAME_BYTES - 200);

    peer.serve((command) => envelope(command.id, MAX_FRAME_BYTES + 1));
    const call = bridge
      .link()!
      .call('screenshot', {})
      .catch((error: unknown) => error);
    expect((await peer.closed).code).toBe(1009);
    expect(await call).toMatchObject({ code: 'EXTENSION_DISCONNECTED' });
    expect(bridge.link()).toBeUndefined();

    const next = await connect();
    next.serve((command) => ok(command));
    expect(await bridge.link()!.call('tabs', {})).toEqual({ text: 'did tabs' });
  }, 60_000);

  it('accepts a message in 4096 fragments and closes the connection (1008) on more', async () => {
    const { bridge, connect } = await startBridge();
    const sendFragmented = (peer: Peer, text: string, fragments: number) => {
      const size = Math.ceil(text.length / fragments);
      for (let i = 0; i < fragments; i++)
        peer.socket.send(text.slice(i * size, (i + 1) * size), { fin: i === fragments - 1 });
    };
    const peer = await connect();
    peer.serve((command) => {
      const frame = JSON.stringify({ ...ok(command), result: { text: 'x'.repeat(8192) } });
      sendFragmented(peer, frame, command.args['fragments'] as number);
      return undefined;
    });
    expect((await bridge.link()!.call('get_text', { fragments: 4096 })).text).toHaveLength(8192);
    const call = bridge
      .link()!
      .call('get_text', { fragments: 4097 })
      .catch((error: unknown) => error);
    expect((await peer.closed).code).toBe(1008);
    expect(await call).toMatchObject({ code: 'EXTENSION_DISCONNECTED' });
    (await connect()).close();
  });
});

// The extension backend over the bridge: runs on whichever link is active now, says EXTENSION_DISCONNECTED when
// there is none, passes progress, abort and the calling agent through, and answers the backend manager's connected/alive questions.
import { describe, expect, it } from 'vitest';
import { extensionBackend, ExtensionExecutor } from '../../electron/core/bridge/extension-executor.js';
import { startBridge } from './support/bridge-harness.js';
import { ok } from './support/peer.js';

const quiet = { progress: () => undefined };

describe('ExtensionExecutor', () => {
  it('says EXTENSION_DISCONNECTED when no extension is connected', async () => {
    const { bridge } = await startBridge();
    await expect(new ExtensionExecutor(bridge).run('tabs', {}, quiet)).rejects.toMatchObject({
      code: 'EXTENSION_DISCONNECTED',
    });
  });

  it('runs over the active link, relaying progress, and follows a replacement link', async () => {
    const { bridge, connect } = await startBridge();
    const executor = new ExtensionExecutor(bridge);
    const first = await connect();
    first.serve((command) => {
      first.send({ type: 'progress', id: command.id, message: 'loading', done: 1, total: 2 });
      return ok(command, 'first');
    });
    const progress: unknown[] = [];
    expect(
      await executor.run('navigate', { url: 'https://example.com' }, { progress: (...args) => progress.push(args) }),
    ).toEqual({ text: 'first' });
    expect(progress).toEqual([['loading', 1, 2]]);

    const second = await connect();
    second.serve((command) => ok(command, 'second'));
    expect(await executor.run('tabs', {}, quiet)).toEqual({ text: 'second' });
  });

  it('passes the abort signal through as a cancel', async () => {
    const { bridge, connect } = await startBridge();
    const peer = await connect();
    const abort = new AbortController();
    const run = new ExtensionExecutor(bridge)
      .run('wait_for', { text: 'x' }, { ...quiet, signal: abort.signal })
      .catch((error: unknown) => error);
    const command = await peer.next('command');
    abort.abort();
    expect(await run).toMatchObject({ code: 'STOPPED' });
    expect(await peer.next('cancel')).toEqual({ type: 'cancel', id: command.id });
  });

  it("sends the calling agent, within the frame's bound of live sessions and always naming itself", async () => {
    const { bridge, connect } = await startBridge();
    const peer = await connect();
    peer.serve((command) => ok(command, 'done'));
    const executor = new ExtensionExecutor(bridge);
    await executor.run('tabs', {}, { ...quiet, agent: { id: '2', live: ['1', '2'] } });
    expect(await peer.next('command')).toMatchObject({ agent: { id: '2', live: ['2', '1'] } });

    const crowd = Array.from({ length: 100 }, (_, i) => String(i + 1));
    await executor.run('tabs', {}, { ...quiet, agent: { id: '1', live: crowd } });
    // The peer decodes with the wire's own schema: a frame past its bound would not have arrived at all.
    expect(await peer.next('command')).toMatchObject({ agent: { id: '1', live: ['1', ...crowd.slice(-63)] } });
    await executor.run('tabs', {}, quiet);
    expect(await peer.next('command')).not.toHaveProperty('agent');
  });
});

describe('extensionBackend', () => {
  it('is connected only with a link, alive when the extension answers the ping in time or was just heard from', async () => {
    const { bridge, connect } = await startBridge();
    const backend = extensionBackend(bridge);
    expect(backend.connected()).toBe(false);
    expect(await backend.alive(100)).toBe(false);

    const peer = await connect();
    expect(backend.connected()).toBe(true);
    expect(await backend.alive(100)).toBe(false);
    let pings = 0;
    peer.serve((command) => (command.op === 'ping' ? (pings++, ok(command, 'pong')) : undefined));
    expect(await backend.alive(800)).toBe(true);
    expect(pings).toBe(1);
    // Heard from a moment ago: alive without another round trip, which would double a fast call's cost.
    expect(await backend.alive(800)).toBe(true);
    expect(pings).toBe(1);

    peer.socket.terminate();
    await expect.poll(() => backend.connected()).toBe(false);
  });
});

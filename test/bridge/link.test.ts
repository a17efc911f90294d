// The authenticated link: commands correlated by id, typed errors, progress, cancel on abort, timeouts that leave
// the socket usable, backpressure, every waiting call failed once on close, ping, and the heartbeat.
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../shared/protocol/errors.js';
import { CLOSE_CODES } from '../../shared/protocol/wire.js';
import { startBridge } from './support/bridge-harness.js';
import { type Command, ok } from './support/peer.js';

const failure = (promise: Promise<unknown> | undefined) =>
  promise?.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('extension link', () => {
  it('sends one command frame per call with a unique id, the args and a budget, and matches answers by id', async () => {
    const { bridge, connect } = await startBridge();
    const peer = await connect();
    const seen: Command[] = [];
    // Answers in reverse order of arrival, once all three are in.
    peer.serve((command) => {
      seen.push(command);
      if (seen.length < 3) return undefined;
      for (const earlier of [...seen].reverse()) peer.send(ok(earlier, `answer ${String(earlier.args['n'])}`));
      return undefined;
    });
    const link = bridge.link()!;
    const answers = await Promise.all([1, 2, 3].map((n) => link.call('get_text', { n })));
    expect(answers.map((answer) => answer.text)).toEqual(['answer 1', 'answer 2', 'answer 3']);
    expect(new Set(seen.map((command) => command.id)).size).toBe(3);
    expect(seen[0]).toMatchObject({ type: 'command', op: 'get_text', args: { n: 1 }, timeoutMs: 30_000 });
  });

  it('returns the whole result: text, image and data', async () => {
    const { bridge, connect } = await startBridge();
    const peer = await connect();
    const result = { text: 'shot', image: { data: 'AAAA', mimeType: 'image/png' }, data: { width: 10 } };
    peer.serve((command) => ({ type: 'result', id: command.id, ok: true, result }));
    expect(await bridge.link()!.call('screenshot', {})).toEqual(result);
  });

  it('turns an error frame into a ToolError with its code, message and next step', async () => {
    const { bridge, connect } = await startBridge();
    const peer = await connect();
    peer.serve((command) => ({
      type: 'result',
      id: command.id,
      ok: false,
      error: { code: 'DEVTOOLS_OPEN', message: 'DevTools is open on tab e1f2.3.', next: 'Close DevTools.' },
    }));
    const error = await failure(bridge.link()!.call('click', { selector: 'a' }));
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({
      code: 'DEVTOOLS_OPEN',
      message: 'DevTools is open on tab e1f2.3.',
      next: 'Close DevTools.',
    });

    peer.serve((command) => ({
      type: 'result',
      id: command.id,
      ok: false,
      error: { code: 'NOT_FOUND', message: 'nothing' },
    }));
    expect(await failure(bridge.link()!.call('click', {}))).toMatchObject({
      code: 'NOT_FOUND',
      next: new ToolError('NOT_FOUND').next,
    });
  });

  it("keeps an error's data, which the core acts on (the site a refusal asks the person about)", async () => {
    const { bridge, connect } = await startBridge();
    const peer = await connect();
    const data = { reason: 'ask', site: 'shop.example', have: 'ask', need: 'read' };
    peer.serve((command) => ({
      type: 'result',
      id: command.id,
      ok: false,
      error: { code: 'DOMAIN_CONFIRMATION_REQUIRED', message: 'undecided', data },
    }));
    expect(await failure(bridge.link()!.call('snapshot', {}))).toMatchObject({
      code: 'DOMAIN_CONFIRMATION_REQUIRED',
      data,
    });
  });

  it('relays progress frames to the caller, in order, before the result', async () => {
    const { bridge, connect } = await startBridge();
    const peer = await connect();
    peer.serve((command) => {
      peer.send({ type: 'progress', id: command.id, message: 'step 1/2: click', done: 0, total: 2 });
      peer.send({ type: 'progress', id: command.id, message: 'step 2/2: type', done: 1, total: 2 });
      return ok(command);
    });
    const progress: unknown[] = [];
    await bridge.link()!.call('batch', { steps: [] }, { progress: (...args) => progress.push(args) });
    expect(progress).toEqual([
      ['step 1/2: click', 0, 2],
      ['step 2/2: type', 1, 2],
    ]);
  });

  it('on abort, sends cancel for that id and rejects STOPPED; an aborted signal sends nothing at all', async () => {
    const { bridge, connect } = await startBridge();
    const peer = await connect();
    const abort = new AbortController();
    const call = failure(bridge.link()!.call('wait_for', { text: 'never' }, { signal: abort.signal }));
    const command = await peer.next('command');
    abort.abort();
    expect(await call).toMatchObject({ code: 'STOPPED' });
    expect(await peer.next('cancel')).toEqual({ type: 'cancel', id: command.id });

    expect(await failure(bridge.link()!.call('tabs', {}, { signal: abort.signal }))).toMatchObject({ code: 'STOPPED' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(peer.frames.filter((frame) => frame.type === 'command')).toEqual([]);
  });

  it('times out with TIMEOUT and a cancel, drops the late answer, and the link keeps serving', async () => {
    const { bridge, connect } = await startBridge();
    const peer = await connect();
    const link = bridge.link()!;
    const started = performance.now();
    const error = await failure(link.call('eval', { expression: '1' }, { timeoutMs: 150 }));
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    const command = await peer.next('command');
    expect(command.timeoutMs).toBe(150);
    expect(await peer.next('cancel')).toEqual({ type: 'cancel', id: command.id });

    peer.send(ok(command, 'too late'));
    peer.serve((next) => ok(next, 'still here'));
    expect(await link.call('tabs', {})).toEqual({ text: 'still here' });
    expect(bridge.link()).toBe(link);
  });

  it('fails every waiting call with EXTENSION_DISCONNECTED exactly once when the extension goes away', async () => {
    const { bridge, connect } = await startBridge();
    const peer = await connect();
    const link = bridge.link()!;
    const disconnected = new Promise<string>((resolve) => bridge.once('disconnected', (_link, why) => resolve(why)));
    const settled: unknown[] = [];
    const calls = ['snapshot', 'tabs', 'screenshot'].map((op) =>
      link.call(op as 'tabs', {}).then(
        (value) => settled.push(['resolved', op, value]),
        (error: unknown) => settled.push(['rejected', op, (error as ToolError).code]),
      ),
    );
    await peer.next('command');
    peer.socket.terminate();
    await Promise.all(calls);
    expect(settled).toEqual([
      ['rejected', 'snapshot', 'EXTENSION_DISCONNECTED'],
      ['rejected', 'tabs', 'EXTENSION_DISCONNECTED'],
      ['rejected', 'screenshot', 'EXTENSION_DISCONNECTED'],
    ]);
    expect(await disconnected).toMatch(/socket closed/);
    expect(bridge.link()).toBeUndefined();
    expect(link.open).toBe(false);
    expect(await failure(link.call('tabs', {}))).toMatchObject({ code: 'EXTENSION_DISCONNECTED' });
  });

  it('refuses with BACKPRESSURE once 8 MiB are queued to an extension that stopped reading, and recovers', async () => {
    const { bridge, connect } = await startBridge();
    const peer = await connect();
    const link = bridge.link()!;
    peer.socket.pause();
    const chunk = 'x'.repeat(1024 * 1024);
    const refused: ToolError[] = [];
    let sent = 0;
    // 1 MiB per call fills the kernel's socket buffers first, then ws's own queue, until the 8 MiB bound bites.
    while (refused.length === 0 && sent < 64) {
      sent++;
      link.call('eval', { expression: chunk }).catch((error: ToolError) => {
        if (error.code === 'BACKPRESSURE') refused.push(error);
      });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(refused[0]).toBeInstanceOf(ToolError);
    expect(refused[0]?.message).toMatch(/^\d+\.\d MiB are still queued to the extension; eval was not sent\.$/);
    expect(sent).toBeGreaterThan(8);

    // The extension reads again and answers what it got: the link drains and serves.
    peer.serve((command) => ok(command));
    peer.socket.resume();
    await expect
      .poll(
        () =>
          link.call('tabs', {}).then(
            (result) => result.text,
            (error: ToolError) => error.code,
          ),
        { timeout: 10_000 },
      )
      .toBe('did tabs');
  });

  it('ping: true when the extension answers in time, false when it does not', async () => {
    const { bridge, connect } = await startBridge();
    const peer = await connect();
    const link = bridge.link()!;
    peer.serve((command) => (command.op === 'ping' ? ok(command, 'pong') : undefined));
    expect(await link.ping(800)).toBe(true);
    peer.serve(() => undefined);
    const started = performance.now();
    expect(await link.ping(100)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('keeps a link whose extension answers heartbeats, and closes one that misses two (4408)', async () => {
    const { bridge, connect } = await startBridge({ heartbeatMs: 100 });
    const alive = await connect();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(bridge.link()?.open).toBe(true);
    expect(alive.frames.filter((frame) => frame.type === 'ping').length).toBeGreaterThanOrEqual(4);

    alive.autoPong = false;
    const link = bridge.link()!;
    const waiting = failure(link.call('wait_for', { text: 'x' }));
    const silencedAt = performance.now();
    const { code, at } = await alive.closed;
    expect(code).toBe(CLOSE_CODES.heartbeat);
    expect(at - silencedAt).toBeLessThan(500);
    expect(await waiting).toMatchObject({ code: 'EXTENSION_DISCONNECTED' });
    expect(bridge.link()).toBeUndefined();
  });
});

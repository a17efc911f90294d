// The extension's end of the wire against a bare core that can send anything: the hello, junk dropped without
// harm, every command id answered exactly once, pings, progress and cancel, and a refused secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES, WIRE_VERSION, type ExtensionFrame } from '../../shared/protocol/wire.js';
import { EXTENSION_ID } from '../../shared/protocol/extension-id.js';
import { startExtensionBrowser, type ExtensionBrowser } from '../support/extension-browser.js';
import { is, RawCore, type RawLink } from './support/raw-core.js';
import { until } from './support/until.js';

const SECRET = 'protocol-test-secret';
const SESSION = 'p1';

let core: RawCore;
let browser: ExtensionBrowser;
let link: RawLink;
let nextId = 0;

beforeAll(async () => {
  core = await RawCore.start();
  browser = await startExtensionBrowser();
  const dialled = core.nextLink();
  await browser.seed({ port: core.port, secret: SECRET });
  link = await dialled;
  link.welcome(SESSION);
});

afterAll(async () => {
  await browser?.close();
  await core?.close();
});

function command(op: string, args: Record<string, unknown> = {}, id = `c${++nextId}`, timeoutMs = 20_000): string {
  link.send({ type: 'command', id, op: op as never, args, timeoutMs });
  return id;
}

type Result = Extract<ExtensionFrame, { type: 'result' }>;

function answersTo(id: string): Result[] {
  return link.received.filter((frame): frame is Result => frame.type === 'result' && frame.id === id);
}

describe('the extension on the wire', () => {
  it('dials the seeded port and says hello with the seeded secret and its identity', () => {
    expect(link.greeting).toMatchObject({ type: 'hello', v: WIRE_VERSION, secret: SECRET, ext: { id: EXTENSION_ID, version: '0.1.0' } });
  });

  it('drops frames that do not decode, and answers the next command', async () => {
    const before = link.received.length;
    link.sendText('{ not json');
    link.sendText(JSON.stringify({ type: 'command' }));
    link.sendText(JSON.stringify({ type: 'command', id: 'junk-op', op: 'format_disk', args: {}, timeoutMs: 1000 }));
    link.sendText(JSON.stringify({ type: 'command', id: 'junk-extra', op: 'ping', args: {}, timeoutMs: 1000, extra: true }));
    link.sendText(JSON.stringify({ type: 'welcome', v: 99, session: 'x', heartbeatMs: 1 }));
    link.sendBinary(new Uint8Array([1, 2, 3]));
    const id = command('ping');
    expect((await link.next(is.result(id))).ok).toBe(true);
    expect(link.received.slice(before).filter((frame) => frame.type === 'result').map((frame) => (frame as Result).id)).toEqual([id]);
  });

  it('answers every command id exactly once: results, typed errors, repeats and junk arguments alike', async () => {
    const ids = [
      command('ping'),
      command('tabs'),
      command('tabs'),
      command('snapshot', { depth: 'deep', bogus: 1 }),
      command('tab_select', { tab: 'zz.1' }),
      command('get_text', { tab: `x${SESSION}.999` }),
      command('batch', { steps: [{ tool: 'batch', args: {} }] }),
      command('eval', { expression: 'throw new Error("boom")' }),
    ];
    // The same id again while the first runs: still one answer.
    const repeated = command('wait_for', { text: 'never shows up', timeout: 600 });
    command('wait_for', { text: 'never shows up', timeout: 600 }, repeated);
    ids.push(repeated);
    for (const id of ids) await link.next(is.result(id));
    // Anything answered twice would have arrived by now.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(ids.map((id) => answersTo(id).length)).toEqual(ids.map(() => 1));

    const codes = Object.fromEntries(ids.map((id) => [id, answersTo(id)[0]!]).map(([id, frame]) => [id, (frame as Result).ok ? 'ok' : (frame as Extract<Result, { ok: false }>).error.code]));
    expect(Object.values(codes)).toEqual(['ok', 'ok', 'ok', 'BAD_ARGS', 'STALE_TAB', 'TAB_NOT_FOUND', 'BAD_ARGS', expect.any(String), expect.any(String)]);
  });

  it('answers the core\'s heartbeat ping with its timestamp', async () => {
    link.send({ type: 'ping', ts: 12345 });
    expect(await link.next(is.pong(12345))).toEqual({ type: 'pong', ts: 12345 });
  });

  it('reports progress on a long command and stops it on cancel, answering it once', async () => {
    const id = command('wait_for', { text: 'never shows up', timeout: 20_000 });
    expect((await link.next(is.progress(id))).message).toBeTruthy();
    const start = performance.now();
    link.send({ type: 'cancel', id });
    const answer = await link.next(is.result(id));
    expect(performance.now() - start).toBeLessThan(2_000);
    expect(answer).toMatchObject({ ok: false, error: { code: 'STOPPED' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answersTo(id)).toHaveLength(1);
  });
});

describe('a refused secret', () => {
  it('stops dialling until the credentials change, then says hello with the new secret', async () => {
    link.refuse('bad_secret', CLOSE_CODES.unauthorized);
    await link.closed;
    // The native host is asked again once (none is installed here), then the extension waits: no new dial.
    const status = await until(() => browser.evaluate<{ link?: { state: string } }>('chrome.storage.session.get("link")'), (value) => value.link?.state === 'unauthorized');
    expect(status.link?.state).toBe('unauthorized');
    await expect(core.nextLink(2_000)).rejects.toThrow(/no connection/);

    const dialled = core.nextLink();
    await browser.seed({ port: core.port, secret: 'a-new-secret' });
    link = await dialled;
    expect(link.greeting).toMatchObject({ type: 'hello', secret: 'a-new-secret' });
  });
});

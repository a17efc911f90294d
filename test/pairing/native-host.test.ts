// The native host as Chrome runs it: a real `chrome-mcp native-host` process speaking length-prefixed JSON on stdio.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_BRIDGE_PORT } from '../../shared/protocol/wire.js';
import { EXTENSION_ORIGIN } from '../../shared/protocol/extension-id.js';
import { BridgeStateFile } from '../../electron/core/pairing/bridge-state.js';
import {
  encodeMessage,
  MAX_REPLY_BYTES,
  MAX_REQUEST_BYTES,
  MessageDecoder,
} from '../../electron/core/pairing/native-messaging.js';
import { SECRET_FILE, SecretStore } from '../../electron/core/pairing/secret-store.js';
import { CLI, runCli, tempDirs } from './support/cli.js';
import { frame, replies } from './support/framing.js';

const dirs = tempDirs('host');
afterAll(() => dirs.cleanup());

const OUR_ORIGIN = `${EXTENSION_ORIGIN}/`;
const pairing = frame(JSON.stringify({ type: 'pairing' }));

/** `origin` null: no origin argument at all. */
function host(dataDir: string, input: Buffer, origin: string | null = OUR_ORIGIN) {
  return runCli(['native-host', '--data-dir', dataDir, ...(origin === null ? [] : [origin])], { input });
}

describe('native host process', () => {
  it('answers {type:"pairing"} with the secret it creates and the default port, and exits 0 when stdin closes', async () => {
    const dataDir = dirs.dataDir();
    const run = await host(dataDir, pairing);
    expect(run.code).toBe(0);
    const [reply] = replies(run.stdout) as Array<{ secret: string; port: number }>;
    expect(Object.keys(reply!).sort()).toEqual(['port', 'secret']);
    expect(reply!.port).toBe(DEFAULT_BRIDGE_PORT);
    expect(reply!.secret).toBe((await new SecretStore(dataDir).read())?.secret);
    // Asked again, the same secret: asking is not re-pairing.
    expect(replies((await host(dataDir, pairing)).stdout)).toEqual([reply]);
  });

  it('answers {error:"revoked"} after a revoke and mints nothing, until the person runs `chrome-mcp pair`', async () => {
    const dataDir = dirs.dataDir();
    const [before] = replies((await host(dataDir, pairing)).stdout) as Array<{ secret: string }>;
    await new SecretStore(dataDir).revoke();
    // However often the extension asks: this is what stops it pairing itself again a moment after Revoke.
    for (let ask = 0; ask < 2; ask++)
      expect(replies((await host(dataDir, pairing)).stdout)).toEqual([{ error: 'revoked' }]);
    expect(existsSync(join(dataDir, SECRET_FILE))).toBe(false);

    expect((await runCli(['pair', '--data-dir', dataDir])).code).toBe(0);
    const [after] = replies((await host(dataDir, pairing)).stdout) as Array<{ secret: string }>;
    expect(after).toEqual({ secret: expect.any(String), port: DEFAULT_BRIDGE_PORT });
    expect(after!.secret).not.toBe(before!.secret);
  });

  it('mints one secret when several hosts are asked for a first pairing at the same moment', async () => {
    // Chrome starts a host per request: the extension's own and another (a second profile, a retry) can race.
    const dataDir = dirs.dataDir();
    const runs = await Promise.all(Array.from({ length: 6 }, () => host(dataDir, pairing)));
    const secrets = runs.map((run) => (replies(run.stdout)[0] as { secret: string }).secret);
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toBe((await new SecretStore(dataDir).read())?.secret);
    expect(existsSync(join(dataDir, 'secret.lock'))).toBe(false);
  });

  it("hands out the running core's port from bridge.json, and the default when its writer is gone", async () => {
    const dataDir = dirs.dataDir();
    const state = new BridgeStateFile(dataDir);
    state.started(40_123);
    expect(replies((await host(dataDir, pairing)).stdout)).toEqual([expect.objectContaining({ port: 40_123 })]);
    // A crashed core leaves its file: the pid is dead, so the port means nothing any more.
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.once('exit', resolve));
    new BridgeStateFile(dataDir, dead.pid!).started(40_124);
    expect(replies((await host(dataDir, pairing)).stdout)).toEqual([
      expect.objectContaining({ port: DEFAULT_BRIDGE_PORT }),
    ]);
  });

  it('refuses other messages, junk and oversized frames, answering each in order', async () => {
    const dataDir = dirs.dataDir();
    const input = Buffer.concat([
      frame(JSON.stringify({ type: 'secret' })),
      frame(JSON.stringify({ type: 'pairing', extra: 1 })),
      frame('{not json'),
      frame(JSON.stringify('pairing')),
      pairing,
      frame(Buffer.alloc(MAX_REQUEST_BYTES + 1, 0x20)),
      pairing,
    ]);
    const run = await host(dataDir, input);
    expect(run.code).toBe(0);
    const answered = replies(run.stdout);
    expect(answered.slice(0, 4)).toEqual(Array.from({ length: 4 }, () => ({ error: 'unsupported_message' })));
    expect(answered[4]).toEqual({ secret: expect.any(String), port: DEFAULT_BRIDGE_PORT });
    // After an oversized length the stream has no trustworthy frame boundary: one refusal, then nothing.
    expect(answered.slice(5)).toEqual([{ error: 'message_too_large' }]);
  });

  it('refuses a caller whose origin is not our extension, or none, and makes no secret for it', async () => {
    const dataDir = dirs.dataDir();
    for (const origin of [
      'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/',
      EXTENSION_ORIGIN,
      `${OUR_ORIGIN}x`,
      'https://example.com/',
      null,
    ]) {
      const run = await host(dataDir, pairing, origin);
      expect(replies(run.stdout)).toEqual([{ error: 'origin_not_allowed' }]);
    }
    expect(existsSync(join(dataDir, SECRET_FILE))).toBe(false);
  });

  it('takes the arguments Chrome adds (Windows: --parent-window) and frames split across writes', async () => {
    const dataDir = dirs.dataDir();
    const child = spawn(
      process.execPath,
      [CLI, 'native-host', '--data-dir', dataDir, OUR_ORIGIN, '--parent-window=0'],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    // The host answers while stdin is still open (Chrome closes it only after the reply).
    const decoder = new MessageDecoder();
    const first = new Promise<unknown>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) =>
        decoder.push(chunk).forEach((decoded) => 'message' in decoded && resolve(decoded.message)),
      ),
    );
    for (const byte of pairing) {
      child.stdin.write(Buffer.from([byte]));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(await first).toEqual({ secret: expect.any(String), port: DEFAULT_BRIDGE_PORT });
    const started = performance.now();
    child.stdin.end();
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('native-messaging framing', () => {
  it("round-trips and refuses a reply over Chrome's 1 MB limit", () => {
    const decoder = new MessageDecoder();
    const bytes = Buffer.concat([encodeMessage({ a: 1 }), encodeMessage(['é'])]);
    expect([...decoder.push(bytes.subarray(0, 5)), ...decoder.push(bytes.subarray(5))]).toEqual([
      { message: { a: 1 } },
      { message: ['é'] },
    ]);
    expect(() => encodeMessage('x'.repeat(MAX_REPLY_BYTES))).toThrow(/1 MB/);
    expect(encodeMessage('x'.repeat(MAX_REPLY_BYTES - 2)).length).toBe(MAX_REPLY_BYTES + 4);
  });
});

// hostCore over a real unix socket, in process: the handshake drops every peer that cannot prove it holds the token
// (and logs none of what they sent), the token itself never crosses the socket, sessions are separate, one core per data dir, stale sockets are cleared, and
// close() takes everything away. The CLI-level tests (serve, relay) are in the other files here.
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../electron/core/config.js';
import { type Core, startCore } from '../../electron/core/core.js';
import { CoreBusyError } from '../../electron/core/host/claim-address.js';
import { coreAddress } from '../../electron/core/host/core-address.js';
import { readCoreFile } from '../../electron/core/host/core-file.js';
import { type CoreHost, hostCore } from '../../electron/core/host/host-core.js';
import { cleanUpDataDirs, coreFlags, freshDataDir, initialize, rawRpc, type RawRpc } from './support.js';

const logged: string[] = [];
const log = (line: string): void => void logged.push(line);
let dataDir: string;
let core: Core;
let host: CoreHost;

beforeAll(async () => {
  dataDir = freshDataDir();
  const outcome = parseCli(coreFlags(dataDir));
  if (outcome.kind !== 'run') throw new Error('bad test flags');
  core = await startCore(outcome.config, log);
  host = await hostCore({ core, dataDir, log });
});

afterAll(async () => {
  await host?.close();
  await core?.close();
  await cleanUpDataDirs();
});

async function opened(address = host.address): Promise<Socket> {
  const socket = connect(address);
  // Writes to a peer the core already dropped fail with EPIPE; the close that follows is what the tests watch.
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  return socket;
}

/** Resolves on close, whether or not an error (ECONNRESET from a dropped peer) came first; events.once would reject. */
function closeOf(socket: Socket): Promise<void> {
  return new Promise((resolve) => socket.once('close', () => resolve()));
}

function proof(token: string, signed: string): string {
  return createHmac('sha256', token).update(signed).digest('base64url');
}

/**
 * A relay's handshake, written out here so the test pins the wire format rather than reusing the product's helper:
 * the core proves it holds the token over our nonce and its own, we prove it back, then `ok`. Returns the lines the
 * core sent, and writes `after` straight behind our proof.
 */
async function handshake(socket: Socket, rpc: RawRpc, token: string, after = ''): Promise<void> {
  const hello = randomBytes(32).toString('base64url');
  socket.write(`${JSON.stringify({ hello })}\n`);
  await expect.poll(() => rpc.lines.length).toBe(1);
  const challenge = JSON.parse(rpc.lines[0]!) as { nonce: string; proof: string };
  expect(challenge.proof).toBe(proof(token, `chrome-mcp core|${hello}|${challenge.nonce}`));
  socket.write(`${JSON.stringify({ proof: proof(token, `chrome-mcp relay|${challenge.nonce}|${hello}`) })}\n${after}`);
}

async function session(
  name: string,
  address = host.address,
  token = readCoreFile(dataDir)!.token,
): Promise<{ socket: Socket; rpc: RawRpc }> {
  const socket = await opened(address);
  const rpc = rawRpc(socket, socket);
  await handshake(socket, rpc, token);
  await initialize(rpc, name);
  expect(rpc.lines[1]).toBe('{"ok":true}');
  return { socket, rpc };
}

/** What a peer got back before the core closed on it. */
async function answerTo(send: (socket: Socket) => void): Promise<string> {
  const socket = await opened();
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const closed = closeOf(socket);
  send(socket);
  await closed;
  return received;
}

async function statusWorks(rpc: RawRpc): Promise<void> {
  const answer = await rpc.request('tools/call', { name: 'status', arguments: {} });
  expect(answer['result']).toMatchObject({ structuredContent: { backend: 'fallback' } });
}

describe('the core socket', () => {
  it('listens on <data-dir>/core.sock and writes core.json, both 0600', () => {
    const socketPath = join(dataDir, 'core.sock');
    expect(host.address).toBe(socketPath);
    expect(statSync(socketPath).isSocket()).toBe(true);
    expect(statSync(socketPath).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'core.json')).mode & 0o777).toBe(0o600);
    const file = JSON.parse(readFileSync(join(dataDir, 'core.json'), 'utf8')) as Record<string, unknown>;
    expect(file).toEqual({ v: 1, socket: socketPath, token: expect.stringMatching(/^[\w-]{43}$/), pid: process.pid });
  });

  it('drops junk, the token sent in the clear, an MCP message sent first, an oversized line and a silent peer, answering none', async () => {
    const token = readCoreFile(dataDir)!.token;
    expect(await answerTo((socket) => socket.write(`${JSON.stringify({ auth: token })}\n`))).toBe('');
    expect(await answerTo((socket) => socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n'))).toBe('');
    expect(
      await answerTo((socket) => socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`)),
    ).toBe('');
    expect(await answerTo((socket) => socket.write('x'.repeat(4096)))).toBe('');
    // The silent peer is dropped by the core's own deadline: this waits for it, and asserts nothing about how long.
    expect(await answerTo(() => undefined)).toBe('');
    expect(logged.join('\n')).not.toContain(token);
    expect(logged.filter((line) => line.includes('dropped'))).toHaveLength(5);

    const { socket, rpc } = await session('after-the-probes');
    await statusWorks(rpc);
    socket.end();
  });

  it("drops a peer that answers the challenge with a wrong token, a replayed proof or the core's own proof, serving none", async () => {
    const token = readCoreFile(dataDir)!.token;
    const refusedWith = async (
      answer: (challenge: { nonce: string; proof: string }, hello: string) => string,
    ): Promise<string[]> => {
      const socket = await opened();
      const rpc = rawRpc(socket, socket);
      const closed = closeOf(socket);
      const hello = randomBytes(32).toString('base64url');
      socket.write(`${JSON.stringify({ hello })}\n`);
      await expect.poll(() => rpc.lines.length).toBe(1);
      const challenge = JSON.parse(rpc.lines[0]!) as { nonce: string; proof: string };
      socket.write(
        `${JSON.stringify({ proof: answer(challenge, hello) })}\n${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`,
      );
      await closed;
      return rpc.lines.slice(1);
    };
    const before = logged.length;
    expect(
      await refusedWith(({ nonce }, hello) =>
        proof('Wrong-Token-Qz8vX2mK4pL9nR7tY1cB5dF3gH6jA0sE8wU2iO4', `chrome-mcp relay|${nonce}|${hello}`),
      ),
    ).toEqual([]);
    // A proof that was right for another connection's nonces is worth nothing on this one.
    const stale = randomBytes(32).toString('base64url');
    expect(await refusedWith((_, hello) => proof(token, `chrome-mcp relay|${stale}|${hello}`))).toEqual([]);
    // The core's proof, reflected: the side's name is part of what is signed.
    expect(await refusedWith(({ proof: its }) => its)).toEqual([]);
    expect(
      logged.slice(before).filter((line) => line.includes("did not prove it holds this core's token")),
    ).toHaveLength(3);
  });

  it('keeps bytes sent right behind the proof for the session', async () => {
    const socket = await opened();
    const rpc = rawRpc(socket, socket);
    const initializeLine = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'eager', version: '1' } },
    });
    await handshake(socket, rpc, readCoreFile(dataDir)!.token, `${initializeLine}\n`);
    await expect.poll(() => rpc.lines.length).toBe(3);
    expect(rpc.lines[1]).toBe('{"ok":true}');
    expect(JSON.parse(rpc.lines[2]!)).toMatchObject({ id: 1, result: { serverInfo: { name: 'chrome-mcp' } } });
    socket.end();
  });

  it('serves several connections at once as separate sessions, each recorded under its own client name', async () => {
    const [one, two] = await Promise.all([session('client-one'), session('client-two')]);
    await Promise.all([statusWorks(one.rpc), statusWorks(two.rpc), statusWorks(one.rpc)]);
    const { events } = await core.control.call('activity.list', {});
    const callers = events.flatMap((event) => (event.type === 'call' && event.tool === 'status' ? [event.client] : []));
    expect(callers.filter((name) => name === 'client-one')).toHaveLength(2);
    expect(callers.filter((name) => name === 'client-two')).toHaveLength(1);
    // One session ending leaves the other serving.
    const oneClosed = closeOf(one.socket);
    one.socket.end();
    await oneClosed;
    await statusWorks(two.rpc);
    two.socket.end();
  });

  it('refuses a second host on the same data dir while the first serves', async () => {
    await expect(hostCore({ core, dataDir, log })).rejects.toThrow(CoreBusyError);
    await expect(hostCore({ core, dataDir, log })).rejects.toThrow(new RegExp(`already serving ${dataDir}`));
    const { socket, rpc } = await session('still-served');
    await statusWorks(rpc);
    socket.end();
  });

  it('clears a socket file left by a core that died, and refuses to remove anything that is not a socket', async () => {
    const stale = freshDataDir();
    const path = join(stale, 'core.sock');
    // A process that listens and is then killed outright leaves its socket file with nothing behind it.
    const holder = spawn(
      process.execPath,
      ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    await once(holder.stdout!, 'data');
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    expect(statSync(path).isSocket()).toBe(true);
    const recovered = await hostCore({ core, dataDir: stale, log });
    expect(readCoreFile(stale)?.socket).toBe(path);
    await recovered.close();

    const blocked = freshDataDir();
    writeFileSync(join(blocked, 'core.sock'), 'not a socket');
    await expect(hostCore({ core, dataDir: blocked, log })).rejects.toThrow(/is not a socket/);
    expect(readFileSync(join(blocked, 'core.sock'), 'utf8')).toBe('not a socket');
  });

  it('close() ends every session and removes the socket and core.json', async () => {
    const own = freshDataDir();
    const ownHost = await hostCore({ core, dataDir: own, log });
    const { socket } = await session('to-be-closed', ownHost.address, readCoreFile(own)!.token);
    const closed = closeOf(socket);
    await ownHost.close();
    await closed;
    expect(existsSync(join(own, 'core.sock'))).toBe(false);
    expect(existsSync(join(own, 'core.json'))).toBe(false);
  });
});

describe('the core address', () => {
  it('refuses a data dir too long for a unix socket, rather than let the kernel cut the path short', () => {
    const deep = join(dataDir, 'x'.repeat(100));
    mkdirSync(deep);
    expect(() => coreAddress(deep, 'linux')).toThrow(
      /longer than the 103 bytes a unix socket allows: use a shorter --data-dir/,
    );
  });

  it('is a named pipe per data dir on Windows', () => {
    expect(coreAddress('C:\\Users\\a\\.chrome-mcp', 'win32')).toMatch(/^\\\\\.\\pipe\\chrome-mcp-[0-9a-f]{16}$/);
    expect(coreAddress('C:\\Users\\a\\.chrome-mcp', 'win32')).not.toBe(
      coreAddress('C:\\Users\\b\\.chrome-mcp', 'win32'),
    );
  });
});

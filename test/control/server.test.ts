// The loopback control API under attack: every request without the token, for another Host (DNS rebinding), from a
// foreign page, too large or not JSON is refused before any call runs; it listens on 127.0.0.1 only, and its
// control.json is private and gone after close.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readControlFile } from '../../electron/core/control/control-file.js';
import { CONTROL_FILE } from '../../electron/core/control/control-file.js';
import { ControlServer } from '../../electron/core/control/control-server.js';
import { MAX_BODY_BYTES } from '../../electron/core/control/json-body.js';
import { isLoopback, listeningSockets } from '../support/listening-sockets.js';
import { makeHub, rawRequest, tempDataDirs, type HubSetup } from './support.js';

const dirs = tempDataDirs();
const servers: ControlServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(() => dirs.cleanup());

async function serve(): Promise<HubSetup & { server: ControlServer; port: number; ok: Record<string, string> }> {
  const setup = makeHub(dirs.make());
  const server = await ControlServer.start({
    hub: setup.hub,
    dataDir: setup.dataDir,
    port: 0,
    log: (line) => setup.logged.push(line),
  });
  servers.push(server);
  const ok = {
    host: `127.0.0.1:${server.port}`,
    authorization: `Bearer ${server.token}`,
    'content-type': 'application/json',
  };
  return { ...setup, server, port: server.port, ok };
}

const errorOf = (body: string) => (JSON.parse(body) as { error: { code: string; message: string } }).error;

describe('control server: where it listens and what it leaves behind', () => {
  it('listens on 127.0.0.1 and nowhere else', async () => {
    const { server, port } = await serve();
    expect(server.address).toBe('127.0.0.1');
    const mine = listeningSockets([process.pid]).filter((listener) => listener.port === port);
    expect(mine.map((listener) => listener.address)).toEqual(['127.0.0.1']);
    expect(mine.every((listener) => isLoopback(listener.address))).toBe(true);
  });

  it('writes control.json 0600 with port, token and pid, never logs the token, and removes the file on close', async () => {
    const { server, dataDir, logged } = await serve();
    const path = join(dataDir, CONTROL_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      port: server.port,
      token: server.token,
      pid: process.pid,
    });
    expect(readControlFile(dataDir)).toEqual({ port: server.port, token: server.token, pid: process.pid });
    expect(Buffer.from(server.token, 'base64url')).toHaveLength(32);
    expect(logged.join('\n')).not.toContain(server.token);
    await server.close();
    expect(existsSync(path)).toBe(false);
    expect(readControlFile(dataDir)).toBeUndefined();
  });

  it("leaves a newer server's control.json in place when an older one closes", async () => {
    const first = await serve();
    const second = await ControlServer.start({ hub: first.hub, dataDir: first.dataDir, port: 0, log: () => undefined });
    servers.push(second);
    await first.server.close();
    expect(readControlFile(first.dataDir)?.token).toBe(second.token);
  });

  it('gives each start a fresh token', async () => {
    const [a, b] = await Promise.all([serve(), serve()]);
    expect(a.server.token).not.toBe(b.server.token);
  });
});

describe('control server: refusals', () => {
  it('answers a well-formed call', async () => {
    const { port, ok } = await serve();
    const response = await rawRequest(port, { path: '/api/status', headers: ok, body: '{}' });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ stopped: null, questions: 0 });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('refuses a request with no token, a wrong one, or a malformed Authorization, with 401', async () => {
    const { port, ok, server } = await serve();
    const wrong = `${server.token.slice(0, -1)}${server.token.endsWith('A') ? 'B' : 'A'}`;
    for (const authorization of [
      undefined,
      `Bearer ${wrong}`,
      `Bearer`,
      server.token,
      `Basic ${server.token}`,
      `Bearer ${server.token} extra`,
      `bearer  ${server.token}`,
    ]) {
      const headers: Record<string, string> = { ...ok };
      if (authorization === undefined) delete headers['authorization'];
      else headers['authorization'] = authorization;
      const response = await rawRequest(port, { path: '/api/stop', headers, body: '{}' });
      expect(response.status, `authorization ${authorization}`).toBe(401);
      expect(errorOf(response.body).code).toBe('UNAUTHORIZED');
      expect(response.headers['www-authenticate']).toBe('Bearer');
    }
  });

  it('refuses every Host but its own (DNS rebinding), even with the token', async () => {
    const { port, ok, hub } = await serve();
    for (const host of [
      `evil.com:${port}`,
      'evil.com',
      `127.0.0.1`,
      `127.0.0.1:${port + 1}`,
      `localhost.evil.com:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `[::1]:${port}`,
    ]) {
      const response = await rawRequest(port, { path: '/api/stop', headers: { ...ok, host }, body: '{}' });
      expect(response.status, host).toBe(403);
      expect(errorOf(response.body).code).toBe('FORBIDDEN');
    }
    const viaLocalhost = await rawRequest(port, {
      path: '/api/status',
      headers: { ...ok, host: `localhost:${port}` },
      body: '{}',
    });
    expect(viaLocalhost.status).toBe(200);
    expect(hub.stopped()).toBeNull();
  });

  it('refuses a request from any page but its own (Origin), even with the token', async () => {
    const { port, ok, hub } = await serve();
    for (const origin of [
      'https://evil.com',
      'null',
      `http://127.0.0.1:${port + 1}`,
      `https://127.0.0.1:${port}`,
      'chrome-extension://abcdefghijklmnopabcdefghijklmnop',
      `http://evil.com:${port}`,
    ]) {
      const response = await rawRequest(port, { path: '/api/stop', headers: { ...ok, origin }, body: '{}' });
      expect(response.status, origin).toBe(403);
    }
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      expect((await rawRequest(port, { path: '/api/status', headers: { ...ok, origin }, body: '{}' })).status).toBe(
        200,
      );
    }
    expect(hub.stopped()).toBeNull();
  });

  it('refuses a body that is not JSON by type (415), a CORS-simple text/plain post included', async () => {
    const { port, ok, hub } = await serve();
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      undefined,
    ]) {
      const headers: Record<string, string> = { ...ok };
      if (type === undefined) delete headers['content-type'];
      else headers['content-type'] = type;
      const response = await rawRequest(port, { path: '/api/stop', headers, body: '{}' });
      expect(response.status, type).toBe(415);
      expect(errorOf(response.body).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect(
      (
        await rawRequest(port, {
          path: '/api/status',
          headers: { ...ok, 'content-type': 'application/json; charset=utf-8' },
          body: '{}',
        })
      ).status,
    ).toBe(200);
    expect(hub.stopped()).toBeNull();
  });

  it('refuses a body over 1 MiB, declared or streamed, with 413', async () => {
    const { port, ok } = await serve();
    const declared = await rawRequest(port, { path: '/api/interject', headers: ok, declaredLength: 50 * 1024 * 1024 });
    expect(declared.status).toBe(413);
    expect(errorOf(declared.body).code).toBe('TOO_LARGE');
    const { 'content-type': _type, ...rest } = ok;
    const streamed = await rawRequest(port, {
      path: '/api/interject',
      headers: { ...rest, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: JSON.stringify({ message: 'x'.repeat(MAX_BODY_BYTES) }),
    });
    expect(streamed.status).toBe(413);
  });

  it('answers bad JSON and bad input with BAD_ARGS naming the field', async () => {
    const { port, ok } = await serve();
    const broken = await rawRequest(port, { path: '/api/interject', headers: ok, body: '{"message":' });
    expect(broken.status).toBe(400);
    expect(errorOf(broken.body)).toEqual({ code: 'BAD_ARGS', message: 'The body is not valid JSON.' });
    const bad = await rawRequest(port, {
      path: '/api/policy.set',
      headers: ok,
      body: JSON.stringify({
        rules: [
          { site: 'ok.com', level: 'act' },
          { site: 'a.com/x', level: 'act' },
        ],
        default: 'ask',
        downloads: false,
      }),
    });
    expect(bad.status).toBe(400);
    expect(errorOf(bad.body)).toMatchObject({
      code: 'BAD_ARGS',
      message: expect.stringMatching(/^policy\.set: rules\[1\]: "a\.com\/x"/),
    });
    const unknownField = await rawRequest(port, {
      path: '/api/interject',
      headers: ok,
      body: JSON.stringify({ message: 'hi', urgent: true }),
    });
    expect(errorOf(unknownField.body)).toEqual({ code: 'BAD_ARGS', message: 'interject: unknown field "urgent"' });
    const wrongLevel = await rawRequest(port, {
      path: '/api/policy.set',
      headers: ok,
      body: JSON.stringify({ rules: [{ site: 'ok.com', level: 'all' }], default: 'ask', downloads: false }),
    });
    expect(errorOf(wrongLevel.body).message).toMatch(/^policy\.set: rules\[0\]\.level: /);
  });

  it('answers an unknown call or route with 404, after the token check', async () => {
    const { port, ok } = await serve();
    for (const path of ['/api/nope', '/api/__proto__', '/api/constructor', '/api/toString']) {
      const response = await rawRequest(port, { path, headers: ok, body: '{}' });
      expect(response.status, path).toBe(404);
      expect(errorOf(response.body).code).toBe('UNKNOWN_CALL');
    }
    for (const [method, path] of [
      ['POST', '/'],
      ['GET', '/api/status'],
      ['POST', '/api/events'],
      ['PUT', '/api/stop'],
      ['POST', '/api/a/b'],
      ['OPTIONS', '/api/stop'],
    ] as const) {
      const response = await rawRequest(port, { method, path, headers: ok, body: '{}' });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(errorOf(response.body).code).toBe('NOT_FOUND');
    }
    const { authorization: _auth, ...noToken } = ok;
    expect((await rawRequest(port, { path: '/api/nope', headers: noToken, body: '{}' })).status).toBe(401);
  });

  it('refuses the event stream without the token or for a foreign Host, and a bad `since`', async () => {
    const { port, ok } = await serve();
    const { authorization: _auth, ...noToken } = ok;
    expect((await rawRequest(port, { method: 'GET', path: '/api/events', headers: noToken })).status).toBe(401);
    expect(
      (await rawRequest(port, { method: 'GET', path: '/api/events', headers: { ...ok, host: `evil.com:${port}` } }))
        .status,
    ).toBe(403);
    const bad = await rawRequest(port, { method: 'GET', path: '/api/events?since=-1', headers: ok });
    expect(bad.status).toBe(400);
    expect(errorOf(bad.body).code).toBe('BAD_ARGS');
  });

  it('reports a failure of its own as INTERNAL without details, and logs them', async () => {
    const setup = makeHub(dirs.make(), {
      statusExtra: async () => {
        throw new Error('backend probe exploded');
      },
    });
    const server = await ControlServer.start({
      hub: setup.hub,
      dataDir: setup.dataDir,
      port: 0,
      log: (line) => setup.logged.push(line),
    });
    servers.push(server);
    const response = await rawRequest(server.port, {
      path: '/api/status',
      headers: {
        host: `127.0.0.1:${server.port}`,
        authorization: `Bearer ${server.token}`,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(response.status).toBe(500);
    expect(errorOf(response.body)).toEqual({ code: 'INTERNAL', message: expect.not.stringContaining('exploded') });
    expect(setup.logged.join('\n')).toContain('backend probe exploded');
  });
});

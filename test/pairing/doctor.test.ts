// `doctor`, `extension-path` and subcommand routing as a person runs them: real processes, real files, a real socket.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { BridgeServer } from '../../electron/core/bridge/bridge-server.js';
import { applySteps } from '../../electron/helper/cli/install-native-host.js';
import { planInstall } from '../../electron/helper/cli/install-plan.js';
import { EXTENSION_DIR, extensionBuilt } from '../../electron/core/package-root.js';
import { BridgeStateFile } from '../../electron/core/pairing/bridge-state.js';
import { MANIFEST_FILE } from '../../electron/core/pairing/host-manifest.js';
import { writeFileAtomic } from '../../electron/core/pairing/private-files.js';
import { markRevoked } from '../../electron/core/pairing/revocation.js';
import { createBridgeAuth } from '../../electron/core/pairing/bridge-auth.js';
import { SECRET_FILE, SecretStore } from '../../electron/core/pairing/secret-store.js';
import { TEST_POLICY } from '../support/test-policy.js';
import { envWithoutKeychain, runCli, tempDirs } from './support/cli.js';
import { frame } from './support/framing.js';

const dirs = tempDirs('doctor');
const servers: Server[] = [];
const bridges: BridgeServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  for (const bridge of bridges.splice(0)) await bridge.close();
});
afterAll(() => dirs.cleanup());

/** A home with a Chromium profile root, so doctor has one browser to check. */
function homeWithChromium(): string {
  const home = dirs.make();
  mkdirSync(join(home, '.config', 'chromium'), { recursive: true });
  return home;
}

/** What a running core leaves: bridge.json naming this process and a port that really listens on loopback. */
async function fakeCore(dataDir: string): Promise<{ port: number; state: BridgeStateFile }> {
  const server = createServer((socket) => socket.destroy());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const state = new BridgeStateFile(dataDir);
  state.started(port);
  return { port, state };
}

async function doctor(dataDir: string, env: NodeJS.ProcessEnv) {
  const run = await runCli(['doctor', '--data-dir', dataDir], { env });
  return { code: run.code, out: run.stdout.toString() };
}

describe('doctor', () => {
  it('on a bare machine: names each problem with its fix, exit 1', async () => {
    const dataDir = dirs.dataDir();
    const { code, out } = await doctor(dataDir, { ...process.env, HOME: dirs.make() });
    expect(code).toBe(1);
    expect(out).toContain(`chrome-mcp doctor: data dir ${dataDir}`);
    expect(out).toMatch(
      /!! no Chrome, Chromium, Edge or Brave profile under .+\n {6}fix: install one; for a browser started with --user-data-dir=DIR: chrome-mcp install-native-host --browser-data-dir DIR --data-dir ".+"/,
    );
    expect(out).toMatch(
      /!! core: not running \(no bridge.json in .+\)\n {6}fix: start your MCP client \(it runs chrome-mcp\), or by hand: chrome-mcp --data-dir/,
    );
    expect(out).toContain('ok pairing secret: none yet');
    expect(out).toMatch(/\d+ problems?\.\n$/);
  });

  it('when all is well: host installed for the browser, core listening, extension connected, secret placed; exit 0', async () => {
    const home = homeWithChromium();
    const dataDir = dirs.dataDir();
    const env = { ...process.env, HOME: home };
    expect((await runCli(['install-native-host', '--browser', 'chromium', '--data-dir', dataDir], { env })).code).toBe(
      0,
    );
    const { kind } = await new SecretStore(dataDir).ensure();
    // A real bridge on the data dir's store: doctor checks that it proves it holds the secret.
    const bridge = await BridgeServer.start({
      port: 0,
      auth: createBridgeAuth({ dataDir }),
      log: () => undefined,
      policy: () => TEST_POLICY,
    });
    bridges.push(bridge);
    const { port } = bridge;
    const state = new BridgeStateFile(dataDir);
    state.started(port);
    state.extensionConnected(true);
    const { code, out } = await doctor(dataDir, env);
    expect(out).toContain(
      `ok chromium: native host installed (${join(home, '.config/chromium/NativeMessagingHosts', MANIFEST_FILE)})`,
    );
    expect(out).toContain(`ok core: running (pid ${process.pid}), bridge on 127.0.0.1:${port}`);
    expect(out).toContain("ok bridge: proves it holds this data dir's pairing secret");
    expect(out).toMatch(/ok extension: connected since \d{4}-/);
    expect(out).toContain(
      kind === 'keychain'
        ? 'ok pairing secret: in the OS keychain (service chrome-mcp'
        : `ok pairing secret: in a 0600 file, ${join(dataDir, SECRET_FILE)}`,
    );
    expect(out).toContain(extensionBuilt() ? `ok extension built: ${EXTENSION_DIR}` : '!! extension not built');
    expect(code).toBe(extensionBuilt() ? 0 : 1);
    if (extensionBuilt()) expect(out).toMatch(/All good\.\n$/);
  });

  it('catches a manifest for another data dir, an edited wrapper, a dead or deaf core, a disconnected extension', async () => {
    const home = homeWithChromium();
    const env = { ...process.env, HOME: home };
    const dataDir = dirs.dataDir();
    const fix = `fix: chrome-mcp install-native-host --browser chromium --data-dir ${JSON.stringify(dataDir)}`;
    await runCli(['install-native-host', '--browser', 'chromium', '--data-dir', dirs.dataDir()], { env });
    let report = await doctor(dataDir, env);
    expect(report.out).toMatch(/!! chromium: the native host manifest points at .+, not this data dir's/);
    expect(report.out).toContain(fix);

    await runCli(['install-native-host', '--browser', 'chromium', '--data-dir', dataDir], { env });
    writeFileSync(
      join(dataDir, 'native-host', 'chrome-mcp-native-host'),
      '#!/bin/sh\nexec /old/node /old/cli.js "$@"\n',
    );
    report = await doctor(dataDir, env);
    expect(report.out).toMatch(/!! chromium: the native host wrapper .+ runs another node or chrome-mcp than this one/);
    expect(report.out).toContain(fix);

    new BridgeStateFile(dataDir, 2 ** 22 + 12_345).started(1);
    expect((await doctor(dataDir, env)).out).toMatch(/!! core: not running \(bridge.json is left from pid \d+\)/);

    const { port, state } = await fakeCore(dataDir);
    report = await doctor(dataDir, env);
    expect(report.out).toMatch(
      /!! extension: not connected\n {6}fix: in Chrome open chrome:\/\/extensions, .*Load unpacked: .+chrome-mcp pair --data-dir/,
    );
    await new Promise((resolve) => servers.pop()!.close(resolve));
    expect((await doctor(dataDir, env)).out).toContain(
      `!! core: pid ${process.pid} runs, but nothing listens on 127.0.0.1:${port}`,
    );
    state.stopped();
  });

  it('names a server on the bridge port that cannot prove it holds the secret as not this core, with how to find it', async () => {
    const dataDir = dirs.dataDir();
    const env = { ...process.env, HOME: dirs.make() };
    await new SecretStore(dataDir).ensure();
    // A rogue that took the port: it speaks the handshake, but proves with a key of its own.
    const rogue = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => rogue.once('listening', () => resolve()));
    rogue.on('connection', (socket) =>
      socket.once('message', () =>
        socket.send(JSON.stringify({ type: 'challenge', nonce: 'n'.repeat(43), proof: 'p'.repeat(43) })),
      ),
    );
    try {
      const { port } = rogue.address() as { port: number };
      new BridgeStateFile(dataDir).started(port);
      const { code, out } = await doctor(dataDir, env);
      expect(code).toBe(1);
      expect(out).toContain(
        `!! bridge: 127.0.0.1:${port} answered but could not prove it holds the pairing secret: it is not this core; the extension refuses it and tells it nothing`,
      );
      expect(out).toMatch(new RegExp(`fix: find the program: lsof -nP -iTCP:${port} -sTCP:LISTEN; stop it`));
    } finally {
      await new Promise((resolve) => rogue.close(resolve));
    }
  });

  it('takes the wrapper the app writes (its binary in --native-host mode) as installed, naming the app, until the app is gone', async () => {
    const home = homeWithChromium();
    const env = { ...process.env, HOME: home };
    const dataDir = dirs.dataDir();
    // Stands in for the app's executable: doctor only checks it is there, it never runs it.
    const appBinary = join(dirs.make(), 'Chrome MCP');
    writeFileSync(appBinary, '');
    applySteps(
      planInstall({
        platform: process.platform,
        home,
        dataDir,
        command: [appBinary, '--native-host'],
        browsers: ['chromium'],
        remove: false,
      }),
    );
    const manifest = join(home, '.config/chromium/NativeMessagingHosts', MANIFEST_FILE);
    expect((await doctor(dataDir, env)).out).toContain(
      `ok chromium: native host installed (${manifest}), run by the Chrome MCP app ${appBinary}\n`,
    );

    rmSync(appBinary);
    const report = await doctor(dataDir, env);
    expect(report.out).toContain(
      `!! chromium: the native host wrapper ${join(dataDir, 'native-host', 'chrome-mcp-native-host')} runs the Chrome MCP app at ${appBinary}, which is not there any more\n`,
    );
    expect(report.out).toContain(
      `fix: chrome-mcp install-native-host --browser chromium --data-dir ${JSON.stringify(dataDir)}`,
    );
  });

  it('says where the secret lives: a file when no keychain answered, and a keychain that stops answering is a problem', async () => {
    const dataDir = dirs.dataDir();
    const env = envWithoutKeychain({ HOME: dirs.make() });
    // The native host makes the secret, as on a first pairing, with no keychain to reach.
    await runCli(['native-host', '--data-dir', dataDir, 'chrome-extension://emhiickdbgmamkpeciieeejhhkpjoflc/'], {
      env,
      input: frame('{"type":"pairing"}'),
    });
    expect((await doctor(dataDir, env)).out).toContain(
      `ok pairing secret: in a 0600 file, ${join(dataDir, SECRET_FILE)} (no OS keychain answered when it was made)`,
    );

    writeFileAtomic(
      join(dataDir, SECRET_FILE),
      JSON.stringify({ v: 1, store: 'keychain', created: new Date().toISOString() }),
    );
    expect((await doctor(dataDir, env)).out).toMatch(
      /!! pairing secret: the OS keychain \(service chrome-mcp, account .+\) does not answer .*\n {6}fix: unlock the keychain/,
    );
  });

  it('names a standing revoke as the problem, with the pairing that lifts it', async () => {
    const dataDir = dirs.dataDir();
    const env = envWithoutKeychain({ HOME: dirs.make() });
    markRevoked(dataDir, () => Date.parse('2026-11-30T10:00:00Z'));
    const { code, out } = await doctor(dataDir, env);
    expect(code).toBe(1);
    expect(out).toContain(
      '!! pairing: revoked in the app on 2026-11-30T10:00:00.000Z; the native host pairs nothing until you pair again',
    );
    expect(out).toContain(`fix: chrome-mcp pair --data-dir ${JSON.stringify(dataDir)}`);
  });
});

describe('subcommand routing', () => {
  it("lists the commands in --help, answers each one's --help, and refuses bad flags with exit 2", async () => {
    const help = await runCli(['--help']);
    expect(help.stdout.toString()).toMatch(
      /Commands:\n {2}install-native-host .+\n {2}pair .+\n {2}extension-path .+\n {2}doctor .+\n {2}ui .+\n {2}install-client .+\n {2}serve .+\n {2}relay .+\n$/,
    );
    // The browser runs native-host; it is no command for a person.
    expect(help.stdout.toString()).not.toMatch(/^ {2}native-host/m);
    for (const command of [
      'install-native-host',
      'pair',
      'extension-path',
      'doctor',
      'ui',
      'install-client',
      'serve',
      'relay',
    ]) {
      const run = await runCli([command, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout.toString()).toMatch(new RegExp(`^Usage: chrome-mcp ${command}`));
    }
    const bad = await runCli(['doctor', '--bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^chrome-mcp doctor: Unknown option '--bogus'[\s\S]*Usage: chrome-mcp doctor/);
    // Ten CLI starts one after another: a second or more each on a busy 2-core box, so it gets room, not a race.
  }, 120_000);

  it('extension-path prints the built folder, and says how to build it when it is missing', async () => {
    if (extensionBuilt()) {
      const run = await runCli(['extension-path']);
      expect(run.code).toBe(0);
      expect(run.stdout.toString()).toBe(`${EXTENSION_DIR}\n`);
    }
    // A copy of the package without dist/extension: the command finds its own package from where it runs.
    const root = dirs.make();
    const repo = fileURLToPath(new URL('../../', import.meta.url));
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'chrome-mcp', version: '0.0.0', type: 'module' }));
    for (const part of ['electron', 'shared'])
      cpSync(join(repo, 'dist', part), join(root, 'dist', part), { recursive: true });
    symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
    const run = spawnSync(process.execPath, [join(root, 'dist/electron/helper/cli.js'), 'extension-path'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `chrome-mcp extension-path: the extension is not built (${join(root, 'dist/extension')} has no manifest.json).\nBuild it: cd ${root} && npm run build\n`,
    );
  });
});

// doctor, part two: is a core running with its bridge listening and proving it holds the pairing secret (or is
// something else on that port, or on the default one, that the extension will refuse), is the extension connected,
// where is the secret, and does a revoke stand?
import { connect } from 'node:net';
import { join } from 'node:path';
import { DEFAULT_BRIDGE_PORT } from '../../../shared/protocol/wire.js';
import { processAlive, readBridgeState } from '../../core/pairing/bridge-state.js';
import { KEYCHAIN_SERVICE } from '../../core/pairing/keychain.js';
import { revokedAt } from '../../core/pairing/revocation.js';
import { SECRET_FILE, type SecretStore } from '../../core/pairing/secret-store.js';
import type { Finding } from './doctor-finding.js';
import { probeBridge } from './doctor-probe.js';
import { otherVersionCore, refusedExtension } from './doctor-version.js';
import { fixes } from './fix-commands.js';

const PROBE_TIMEOUT_MS = 1_000;

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: PROBE_TIMEOUT_MS });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

/** `secret`: this data dir's pairing secret, to check the server's proof with; without one there is nothing to check. */
export async function linkFindings(dataDir: string, secret: string | undefined): Promise<Finding[]> {
  const state = readBridgeState(dataDir);
  const notRunning = !state
    ? { ok: false, text: `core: not running (no bridge.json in ${dataDir})`, fix: fixes.startCore(dataDir) }
    : !processAlive(state.pid)
      ? {
          ok: false,
          text: `core: not running (bridge.json is left from pid ${state.pid})`,
          fix: fixes.startCore(dataDir),
        }
      : undefined;
  // With no core alive the native host names the default port, and the extension dials whatever listens there.
  if (notRunning || !state) return [...(notRunning ? [notRunning] : []), ...(await squatterFindings(dataDir, secret))];
  if (!(await listening(state.port))) {
    return [
      {
        ok: false,
        text: `core: pid ${state.pid} runs, but nothing listens on 127.0.0.1:${state.port}`,
        fix: `restart your MCP client; ${fixes.startCore(dataDir)}`,
      },
    ];
  }
  return [
    { ok: true, text: `core: running (pid ${state.pid}), bridge on 127.0.0.1:${state.port}` },
    ...(await proofFindings(dataDir, state.port, secret)),
    state.extensionConnected
      ? { ok: true, text: `extension: connected since ${state.since}` }
      : state.otherVersion
        ? refusedExtension(state.otherVersion)
        : { ok: false, text: 'extension: not connected', fix: fixes.loadExtension(dataDir) },
  ];
}

async function proofFindings(dataDir: string, port: number, secret: string | undefined): Promise<Finding[]> {
  if (secret === undefined) return [];
  const verdict = await probeBridge(port, secret);
  if (verdict === 'proved') return [{ ok: true, text: `bridge: proves it holds this data dir's pairing secret` }];
  if (verdict === 'other-version') return [otherVersionCore(port)];
  if (verdict === 'refused') {
    return [
      {
        ok: false,
        text: `bridge: 127.0.0.1:${port} holds no pairing secret (it refused to prove one), though this data dir has one`,
        fix: fixes.pair(dataDir),
      },
    ];
  }
  return [
    impostor(
      port,
      verdict === 'failed'
        ? 'answered but could not prove it holds the pairing secret'
        : 'does not speak the bridge handshake',
      dataDir,
    ),
  ];
}

async function squatterFindings(dataDir: string, secret: string | undefined): Promise<Finding[]> {
  const port = DEFAULT_BRIDGE_PORT;
  if (!(await listening(port))) return [];
  const verdict = secret === undefined ? 'unchecked' : await probeBridge(port, secret);
  if (verdict === 'proved')
    return [
      { ok: true, text: `bridge: 127.0.0.1:${port} proves it holds the pairing secret (a core without bridge.json?)` },
    ];
  if (verdict === 'other-version') return [otherVersionCore(port)];
  const why =
    verdict === 'unchecked'
      ? "is not this data dir's core (no pairing secret here to check it with)"
      : 'could not prove it holds the pairing secret';
  return [impostor(port, `listens though no core of this data dir runs, and ${why}`, dataDir)];
}

/** Something the extension dials and refuses (it tells it nothing): which program holds the port is the person's to find. */
function impostor(port: number, what: string, dataDir: string): Finding {
  return {
    ok: false,
    text: `bridge: 127.0.0.1:${port} ${what}: it is not this core; the extension refuses it and tells it nothing`,
    fix: `find the program: ${process.platform === 'win32' ? `netstat -ano | findstr :${port}` : `lsof -nP -iTCP:${port} -sTCP:LISTEN`}; stop it, then ${fixes.startCore(dataDir)}`,
  };
}

export async function secretFindings(dataDir: string, store: SecretStore): Promise<Finding[]> {
  // A revoke stands until the person pairs again: it is why the extension stays unpaired, whatever else is in order.
  const revoked = revokedAt(dataDir);
  if (revoked !== undefined) {
    return [
      {
        ok: false,
        text: `pairing: revoked in the app on ${new Date(revoked).toISOString()}; the native host pairs nothing until you pair again`,
        fix: fixes.pair(dataDir),
      },
    ];
  }
  const kind = store.location();
  if (!kind)
    return [
      {
        ok: true,
        text: 'pairing secret: none yet (made when the extension first asks the native host, or by pairing with a code)',
      },
    ];
  if (kind === 'file') {
    return [
      {
        ok: true,
        text: `pairing secret: in a 0600 file, ${join(dataDir, SECRET_FILE)} (no OS keychain answered when it was made)`,
      },
    ];
  }
  const where = `the OS keychain (service ${KEYCHAIN_SERVICE}, account ${dataDir})`;
  try {
    // Read only to prove the keychain answers: the value goes no further than this test.
    if (await store.read()) return [{ ok: true, text: `pairing secret: in ${where}` }];
    return [{ ok: false, text: `pairing secret: gone from ${where}`, fix: fixes.pair(dataDir) }];
  } catch (error) {
    return [
      {
        ok: false,
        text: `pairing secret: ${where} does not answer (${error instanceof Error ? error.message : String(error)})`,
        fix: 'unlock the keychain (log in to your desktop session), then run chrome-mcp doctor again',
      },
    ];
  }
}

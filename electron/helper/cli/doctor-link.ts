// doctor, part two: is a core running with its bridge listening, is the extension connected, where is the secret, and
// does a revoke stand?
import { connect } from 'node:net';
import { join } from 'node:path';
import { processAlive, readBridgeState } from '../../core/pairing/bridge-state.js';
import { KEYCHAIN_SERVICE } from '../../core/pairing/keychain.js';
import { revokedAt } from '../../core/pairing/revocation.js';
import { SECRET_FILE, type SecretStore } from '../../core/pairing/secret-store.js';
import type { Finding } from './doctor-finding.js';
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

export async function linkFindings(dataDir: string): Promise<Finding[]> {
  const state = readBridgeState(dataDir);
  if (!state) return [{ ok: false, text: `core: not running (no bridge.json in ${dataDir})`, fix: fixes.startCore(dataDir) }];
  if (!processAlive(state.pid)) return [{ ok: false, text: `core: not running (bridge.json is left from pid ${state.pid})`, fix: fixes.startCore(dataDir) }];
  if (!(await listening(state.port))) {
    return [{ ok: false, text: `core: pid ${state.pid} runs, but nothing listens on 127.0.0.1:${state.port}`, fix: `restart your MCP client; ${fixes.startCore(dataDir)}` }];
  }
  return [
    { ok: true, text: `core: running (pid ${state.pid}), bridge on 127.0.0.1:${state.port}` },
    state.extensionConnected
      ? { ok: true, text: `extension: connected since ${state.since}` }
      : { ok: false, text: 'extension: not connected', fix: fixes.loadExtension(dataDir) },
  ];
}

export async function secretFindings(dataDir: string, store: SecretStore): Promise<Finding[]> {
  // A revoke stands until the person pairs again: it is why the extension stays unpaired, whatever else is in order.
  const revoked = revokedAt(dataDir);
  if (revoked !== undefined) {
    return [{ ok: false, text: `pairing: revoked in the app on ${new Date(revoked).toISOString()}; the native host pairs nothing until you pair again`, fix: fixes.pair(dataDir) }];
  }
  const kind = store.location();
  if (!kind) return [{ ok: true, text: 'pairing secret: none yet (made when the extension first asks the native host, or by pairing with a code)' }];
  if (kind === 'file') {
    return [{ ok: true, text: `pairing secret: in a 0600 file, ${join(dataDir, SECRET_FILE)} (no OS keychain answered when it was made)` }];
  }
  const where = `the OS keychain (service ${KEYCHAIN_SERVICE}, account ${dataDir})`;
  try {
    // Read only to prove the keychain answers: the value goes no further than this test.
    if (await store.read()) return [{ ok: true, text: `pairing secret: in ${where}` }];
    return [{ ok: false, text: `pairing secret: gone from ${where}`, fix: fixes.pair(dataDir) }];
  } catch (error) {
    return [{
      ok: false,
      text: `pairing secret: ${where} does not answer (${error instanceof Error ? error.message : String(error)})`,
      fix: 'unlock the keychain (log in to your desktop session), then run chrome-mcp doctor again',
    }];
  }
}

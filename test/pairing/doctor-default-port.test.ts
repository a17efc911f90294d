// `doctor` with no core running and a rogue WebSocket server squatting the bridge's default port, which the native
// host names when no core is alive. The default port is fixed, so the squatter and doctor run in a private network
// namespace (Linux `unshare -rn`): its loopback is theirs alone, whatever else on the machine holds that port.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BridgeStateFile } from '../../electron/core/pairing/bridge-state.js';
import { DEFAULT_BRIDGE_PORT } from '../../shared/protocol/wire.js';
import { envWithoutKeychain, fileSecret, tempDirs } from './support/cli.js';

const SCRIPT = fileURLToPath(new URL('./support/default-port-doctor.ts', import.meta.url));
// The namespace's loopback starts down; `ip` brings it up before the script runs.
const IN_NAMESPACE = ['-rn', 'sh', '-c', 'ip link set lo up && exec "$@"', 'sh'];
const namespaces = spawnSync('unshare', [...IN_NAMESPACE, 'true'], { stdio: 'ignore', timeout: 10_000 }).status === 0;

const dirs = tempDirs('doctor-port');
afterAll(() => dirs.cleanup());

interface Report {
  code: number;
  out: string;
}

/** Runs the squatter and doctor on each data dir inside one private network namespace. */
function doctorsBesideSquatter(dataDirs: string[]): Promise<Report[]> {
  const child = spawn('unshare', [...IN_NAMESPACE, process.execPath, '--import', 'tsx', SCRIPT, ...dataDirs], {
    env: envWithoutKeychain(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const out: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  return new Promise((resolve, reject) =>
    child.once('close', (code) =>
      code === 0 ? resolve(JSON.parse(Buffer.concat(out).toString('utf8'))) : reject(new Error(`exit ${code}`)),
    ),
  );
}

const impostor = (why: string) =>
  `!! bridge: 127.0.0.1:${DEFAULT_BRIDGE_PORT} listens though no core of this data dir runs, and ${why}: it is not this core; the extension refuses it and tells it nothing\n` +
  `      fix: find the program: lsof -nP -iTCP:${DEFAULT_BRIDGE_PORT} -sTCP:LISTEN; stop it, then start your MCP client`;

describe('doctor, default port squatted', () => {
  it.skipIf(!namespaces)(
    'names the squatter as not this core, with or without a secret to check it, and after a core died',
    async () => {
      // Secrets in the 0600 file: the namespace's doctor reaches no session bus, so no keychain either.
      const withSecret = dirs.dataDir();
      await fileSecret(withSecret);
      const noSecret = dirs.dataDir();
      const coreDied = dirs.dataDir();
      await fileSecret(coreDied);
      new BridgeStateFile(coreDied, 2 ** 22 + 12_345).started(40_001);

      const [secretHeld, noneHeld, died] = (await doctorsBesideSquatter([withSecret, noSecret, coreDied])) as [
        Report,
        Report,
        Report,
      ];
      expect(secretHeld.code).toBe(1);
      expect(secretHeld.out).toContain(`!! core: not running (no bridge.json in ${withSecret})`);
      expect(secretHeld.out).toContain(impostor('could not prove it holds the pairing secret'));
      expect(noneHeld.out).toContain(impostor("is not this data dir's core (no pairing secret here to check it with)"));
      expect(died.out).toMatch(/!! core: not running \(bridge.json is left from pid \d+\)/);
      expect(died.out).toContain(impostor('could not prove it holds the pairing secret'));
    },
    60_000,
  );
});

// Run inside a private network namespace (test/pairing/doctor-default-port.test.ts), where the bridge's default port is
// ours alone: squats it with a rogue WebSocket server, runs `chrome-mcp doctor` on each data dir named, prints the
// reports as JSON.
import { WebSocketServer } from 'ws';
import { DEFAULT_BRIDGE_PORT } from '../../../shared/protocol/wire.js';
import { envWithoutKeychain, runCli } from './cli.js';

const dataDirs = process.argv.slice(2);
// A rogue that took the port: it speaks the handshake, but proves with a key of its own.
const rogue = new WebSocketServer({ host: '127.0.0.1', port: DEFAULT_BRIDGE_PORT });
await new Promise<void>((resolve) => rogue.once('listening', () => resolve()));
rogue.on('connection', (socket) =>
  socket.once('message', () =>
    socket.send(JSON.stringify({ type: 'challenge', nonce: 'n'.repeat(43), proof: 'p'.repeat(43) })),
  ),
);
const reports = [];
for (const dataDir of dataDirs) {
  const run = await runCli(['doctor', '--data-dir', dataDir], { env: envWithoutKeychain() });
  reports.push({ code: run.code, out: run.stdout.toString() });
}
await new Promise((resolve) => rogue.close(resolve));
process.stdout.write(JSON.stringify(reports));

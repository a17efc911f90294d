// A stand-in extension in its own process, for latency measurements that cross a process boundary like the real
// one: authenticates with the secret from CHROME_MCP_TEST_SECRET (checking the core's proof, then proving its own)
// and answers every command at once.
import { WebSocket } from 'ws';
import {
  freshNonce,
  proofOf,
  secretKey,
  verifyProof,
  type ProofContext,
} from '../../../shared/protocol/bridge-proof.js';
import { EXTENSION_ORIGIN } from '../../../shared/protocol/extension-id.js';
import { challengeFrame, commandFrame, decodeFrame, pingFrame } from '../../../shared/protocol/wire.js';
import { helloText } from './peer.js';

const port = Number(process.argv[2]);
const key = secretKey(process.env['CHROME_MCP_TEST_SECRET'] ?? '');
const nonce = freshNonce();
const socket = new WebSocket(`ws://127.0.0.1:${port}`, { origin: EXTENSION_ORIGIN });
socket.on('open', () => socket.send(helloText(nonce)));
socket.on('message', (data) => {
  const text = data.toString();
  const challenge = decodeFrame(challengeFrame, text);
  if (challenge) return void answer(challenge.nonce, challenge.proof);
  const command = decodeFrame(commandFrame, text);
  if (command) return socket.send(JSON.stringify({ type: 'result', id: command.id, ok: true, result: { text: 'x' } }));
  const ping = decodeFrame(pingFrame, text);
  if (ping) socket.send(JSON.stringify({ type: 'pong', ts: ping.ts }));
});
socket.on('close', () => process.exit(0));

async function answer(coreNonce: string, proof: string): Promise<void> {
  const context: ProofContext = { purpose: 'hello', port, extensionNonce: nonce, coreNonce };
  if (!(await verifyProof(key, 'core', context, proof))) return socket.close();
  socket.send(JSON.stringify({ type: 'proof', proof: await proofOf(key, 'extension', context) }));
}

// A stand-in extension in its own process, for latency measurements that cross a process boundary like the real
// one: authenticates with the secret from CHROME_MCP_TEST_SECRET and answers every command at once.
import { WebSocket } from 'ws';
import { EXTENSION_ORIGIN } from '../../../shared/protocol/extension-id.js';
import { commandFrame, decodeFrame, pingFrame } from '../../../shared/protocol/wire.js';
import { helloText } from './peer.js';

const socket = new WebSocket(`ws://127.0.0.1:${process.argv[2]}`, { origin: EXTENSION_ORIGIN });
socket.on('open', () => socket.send(helloText(process.env['CHROME_MCP_TEST_SECRET'] ?? '')));
socket.on('message', (data) => {
  const text = data.toString();
  const command = decodeFrame(commandFrame, text);
  if (command) return socket.send(JSON.stringify({ type: 'result', id: command.id, ok: true, result: { text: 'x' } }));
  const ping = decodeFrame(pingFrame, text);
  if (ping) socket.send(JSON.stringify({ type: 'pong', ts: ping.ts }));
});
socket.on('close', () => process.exit(0));

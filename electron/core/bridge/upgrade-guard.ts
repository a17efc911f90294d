// Who may even start the WebSocket handshake: our extension's Origin, addressed to this loopback host and port.
// Defence in depth against web pages (which cannot forge an extension Origin) and DNS rebinding; the secret is the boundary.
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { BRIDGE_HOST } from './limits.js';

export interface Refusal {
  status: 403 | 503;
  why: string;
}

export function upgradeRefusal(
  request: IncomingMessage,
  expected: { origin: string; port: number },
): Refusal | undefined {
  const { origin, host } = request.headers;
  if (origin !== expected.origin)
    return {
      status: 403,
      why: origin === undefined ? 'no Origin header' : `Origin ${quote(origin)} is not our extension`,
    };
  if (host !== `${BRIDGE_HOST}:${expected.port}` && host !== `localhost:${expected.port}`)
    return { status: 403, why: `Host ${quote(host)} is not this bridge` };
  return undefined;
}

/** Answers the upgrade request with a plain HTTP status and drops the socket once that is written. */
export function refuseUpgrade(socket: Duplex, status: Refusal['status']): void {
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

// Header values are the peer's words: bounded and quoted before they reach a log line.
function quote(value: string | undefined): string {
  return JSON.stringify(value?.slice(0, 100)) ?? 'none';
}

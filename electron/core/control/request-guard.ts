// Who may use the loopback control API: requests addressed to this host and port (DNS rebinding), from no page but
// our own (Origin), carrying the token. Checked on every request, before the route is even looked at.
import type { IncomingHttpHeaders } from 'node:http';
import { ControlError } from '../../../shared/control/errors.js';
import { sameSecret } from '../bridge/secret-compare.js';

/** The refusal for a request, or undefined when it may proceed. */
export function requestRefusal(headers: IncomingHttpHeaders, expected: { port: number; token: string }): ControlError | undefined {
  const { host, origin, authorization } = headers;
  // A rebound DNS name reaches 127.0.0.1 with the attacker's host name in Host: only our own spellings pass.
  const hosts = [`127.0.0.1:${expected.port}`, `localhost:${expected.port}`];
  if (host === undefined || !hosts.includes(host)) return new ControlError('FORBIDDEN', 'This is the chrome-mcp control API; the Host header does not name it.');
  // Browsers send Origin on cross-origin requests; a panel served from here is the only page allowed in.
  if (origin !== undefined && !hosts.some((allowed) => origin === `http://${allowed}`)) {
    return new ControlError('FORBIDDEN', 'Requests from other web pages are refused.');
  }
  const presented = /^Bearer ([^\s]+)$/.exec(authorization ?? '')?.[1];
  if (presented === undefined || !sameSecret(presented, expected.token)) {
    return new ControlError('UNAUTHORIZED', `Send "Authorization: Bearer <token>" with the token from control.json in chrome-mcp's data dir.`);
  }
  return undefined;
}

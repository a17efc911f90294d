// Who may use the loopback control server: requests addressed to this host and port (DNS rebinding), from no page
// but our own (Origin), and — for the API, not the panel's static files — carrying the token. Checked on every
// request, before the route is even looked at.
import type { IncomingHttpHeaders } from 'node:http';
import { ControlError } from '../../../shared/control/errors.js';
import { sameSecret } from '../bridge/secret-compare.js';

/** The refusal for a request not addressed to this server or sent by another page, or undefined when it may proceed. */
export function addressRefusal(headers: IncomingHttpHeaders, port: number): ControlError | undefined {
  const { host, origin } = headers;
  // A rebound DNS name reaches 127.0.0.1 with the attacker's host name in Host: only our own spellings pass.
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (host === undefined || !hosts.includes(host))
    return new ControlError('FORBIDDEN', 'This is the chrome-mcp control API; the Host header does not name it.');
  // Browsers send Origin on cross-origin requests; a panel served from here is the only page allowed in.
  if (origin !== undefined && !hosts.some((allowed) => origin === `http://${allowed}`)) {
    return new ControlError('FORBIDDEN', 'Requests from other web pages are refused.');
  }
  return undefined;
}

/** The refusal for an API request without this run's token, or undefined when it carries it. */
export function tokenRefusal(headers: IncomingHttpHeaders, token: string): ControlError | undefined {
  const presented = /^Bearer ([^\s]+)$/.exec(headers.authorization ?? '')?.[1];
  if (presented === undefined || !sameSecret(presented, token)) {
    return new ControlError(
      'UNAUTHORIZED',
      `Send "Authorization: Bearer <token>" with the token from control.json in chrome-mcp's data dir.`,
    );
  }
  return undefined;
}

// The control API over loopback HTTP for a panel or script on this machine: 127.0.0.1 only, a fresh token per run in
// a 0600 control.json, Host / Origin / token checked on every request, JSON calls and an activity event stream; and
// the built panel itself at `/`, which holds no secret (the token reaches it in the URL fragment `chrome-mcp ui` opens).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isControlCall } from '../../../shared/control/api.js';
import { ControlError, type ErrorBody } from '../../../shared/control/errors.js';
import type { Log } from '../log.js';
import { removeControlFile, writeControlFile } from './control-file.js';
import { type ActivitySource, HEARTBEAT_MS, parseSince, streamEvents } from './event-stream.js';
import type { ControlHub } from './hub.js';
import { readJsonBody } from './json-body.js';
import { PANEL_DIR, PANEL_HEADERS, panelFile } from './panel-files.js';
import { addressRefusal, tokenRefusal } from './request-guard.js';

const HOST = '127.0.0.1';

export interface ControlServerOptions {
  hub: Pick<ControlHub, 'call'> & ActivitySource;
  /** Where control.json goes: the private data dir. */
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  log: Log;
  heartbeatMs?: number;
  /** The built panel; dist/renderer unless a test serves its own. */
  panelDir?: string;
}

const SAFE_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

export class ControlServer {
  /** 32 random bytes, base64url; never logged. */
  readonly token = randomBytes(32).toString('base64url');
  private readonly streams = new Set<() => void>();

  private constructor(
    private readonly http: Server,
    private readonly options: ControlServerOptions,
  ) {}

  static async start(options: ControlServerOptions): Promise<ControlServer> {
    const http = createServer();
    const server = new ControlServer(http, options);
    http.on('request', (request: IncomingMessage, response: ServerResponse) => {
      server.handle(request, response).catch((error: unknown) => server.failed(response, error));
    });
    http.on('clientError', (_error, socket) => socket.destroy());
    await listen(http, options.port);
    http.on('error', (error) => options.log(`control: server error: ${error.message}`));
    writeControlFile(options.dataDir, { port: server.port, token: server.token, pid: process.pid });
    options.log(`control: listening on http://${HOST}:${server.port} (token in ${options.dataDir}/control.json)`);
    return server;
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  get address(): string {
    return (this.http.address() as AddressInfo).address;
  }

  /** Ends every event stream, drops every connection, and removes control.json if it is still ours. */
  async close(): Promise<void> {
    removeControlFile(this.options.dataDir, this.token);
    for (const end of this.streams) end();
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    this.http.closeAllConnections();
    await closed;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const address = addressRefusal(request.headers, this.port);
    if (address) return sendError(response, address);
    // Origin-form targets only: resolved against a base, `//elsewhere/x` would name another host and lose its path.
    const target = request.url ?? '';
    if (!target.startsWith('/') || target.startsWith('//'))
      return sendError(response, new ControlError('NOT_FOUND', 'No such route.'));
    const url = new URL(`http://${HOST}${target}`);
    if (!url.pathname.startsWith('/api/')) return this.servePanel(request, response, url.pathname);
    const refusal = tokenRefusal(request.headers, this.token);
    if (refusal) return sendError(response, refusal);
    const noRoute = new ControlError('NOT_FOUND', 'No such route: POST /api/<call> or GET /api/events.');
    if (url.pathname === '/api/events') {
      if (request.method !== 'GET') return sendError(response, noRoute);
      const end = streamEvents(
        response,
        this.options.hub,
        parseSince(url.searchParams),
        this.options.heartbeatMs ?? HEARTBEAT_MS,
      );
      this.streams.add(end);
      response.once('close', () => this.streams.delete(end));
      return;
    }
    const name = /^\/api\/([\w.]+)$/.exec(url.pathname)?.[1];
    if (name === undefined || request.method !== 'POST') return sendError(response, noRoute);
    if (!isControlCall(name))
      return sendError(response, new ControlError('UNKNOWN_CALL', `No control call "${name.slice(0, 100)}".`));
    const input = await readJsonBody(request);
    send(response, 200, await this.options.hub.call(name, input));
  }

  /** The panel's static files: no token (they hold no secret), but the Host and Origin checks above still apply. */
  private servePanel(request: IncomingMessage, response: ServerResponse, pathname: string): void {
    const file =
      request.method === 'GET' || request.method === 'HEAD'
        ? panelFile(this.options.panelDir ?? PANEL_DIR, pathname)
        : undefined;
    if (!file)
      return sendError(
        response,
        new ControlError('NOT_FOUND', 'No such file in the panel (if `/` is missing too, build it: npm run build).'),
      );
    response.writeHead(200, { 'Content-Type': file.type, 'Content-Length': file.body.length, ...PANEL_HEADERS });
    response.end(request.method === 'HEAD' ? undefined : file.body);
  }

  private failed(response: ServerResponse, error: unknown): void {
    if (error instanceof ControlError) return sendError(response, error);
    // Our bug: the stack goes to the log, the caller learns only that it happened.
    this.options.log(`control: a call failed: ${error instanceof Error ? error.stack : String(error)}`);
    sendError(response, new ControlError('INTERNAL', 'Unexpected failure inside chrome-mcp; its log has the details.'));
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent) return void response.destroy();
  response
    .writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...SAFE_HEADERS })
    .end(JSON.stringify(body));
}

function sendError(response: ServerResponse, error: ControlError): void {
  const body: ErrorBody = { error: { code: error.code, message: error.message } };
  // A body left unread (too large, or never read after a refusal) is not drained: the connection closes instead.
  response.setHeader('Connection', 'close');
  if (error.code === 'UNAUTHORIZED') response.setHeader('WWW-Authenticate', 'Bearer');
  send(response, error.status, body);
}

function listen(http: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'is already in use' : `cannot be used (${error.message})`;
      reject(new Error(`Control API: port ${port} on ${HOST} ${why}.`));
    };
    http.once('error', failed);
    http.listen({ port, host: HOST }, () => {
      http.off('error', failed);
      resolve();
    });
  });
}

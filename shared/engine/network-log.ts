// A tab's network traffic, kept in the engine as Network events arrive on every session of the tab (its frames' and
// workers'): a ring bounded by count and bytes, keyed per session so two frames' request ids never collide, read with
// no round trip per request. Bodies stay in Chrome's own buffer, fetched one at a time on demand.
import type { Cdp, CdpEvent } from './cdp.js';
import { base64Of } from './gate/paused-body.js';
import type { DocumentPlace } from './policy-gate.js';
import { TabCapture } from './tab-capture.js';
import { keepNewest } from './keep-newest.js';

export interface NetworkRecord {
  /** Short and per tab: what the model names a request by. */
  id: number;
  method: string;
  url: string;
  /** Chrome's resource type: Document, XHR, Fetch, Script, Image… */
  type: string;
  status?: number;
  mimeType?: string;
  /** Why it failed (net::ERR_…, or blocked), when it did. */
  failed?: string;
  /** Bytes received over the wire, once finished. */
  size?: number;
  started: number;
  ms?: number;
  requestHeaders: Record<string, string>;
  responseHeaders?: Record<string, string>;
  hasPostData: boolean;
  /** How many cookies the browser sent with it (their names and values are never kept): tells a cookie session. */
  cookies?: number;
  /** The document that made it, as the policy judges it when the record is read. */
  place: DocumentPlace;
  frameId: string | undefined;
  /** The session it came on, and Chrome's id there: how its body is asked for. */
  sessionId: string | undefined;
  requestId: string;
  /** What one of the agent's routes (network-routes.ts) did with it, and which route. */
  routed?: Routed;
}

export interface Routed {
  how: 'mocked' | 'blocked' | 'modified';
  route: string;
}

/** No bodies kept: what the egress layers enable Network with while nobody reads the log. */
const NO_BODIES = { maxTotalBufferSize: 0, maxResourceBufferSize: 0, maxPostDataSize: 0 };

/**
 * What every layer enables Network with on a session of this tab (the egress hold and trail too): a second
 * Network.enable replaces the first one's buffers, so while the log captures, bodies stay kept whoever enables it.
 */
export function networkEnableParams(log: NetworkLog): Record<string, number> {
  return log.capturing ? CAPTURE : NO_BODIES;
}

const MAX_RECORDS = 500;
// Facts told of requests whose record has not come yet: a route's mark (a request is paused before or after Network
// tells of it), the cookies the network stack added. One for a request never announced (a worker's, a preflight's)
// must not pile up.
const MAX_EARLY = 100;
const MAX_BYTES = 2 * 1024 * 1024;
/** Chrome keeps bodies of this tab up to this much, for network_get; older ones fall out first. */
export const BODY_BUFFER_BYTES = 20 * 1024 * 1024;
const CAPTURE = { maxTotalBufferSize: BODY_BUFFER_BYTES, maxResourceBufferSize: 2 * 1024 * 1024, maxPostDataSize: 0 };

export class NetworkLog {
  private readonly records: NetworkRecord[] = [];
  private readonly live = new Map<string, NetworkRecord>();
  private readonly early = new Map<string, Pick<NetworkRecord, 'routed' | 'cookies'>>();
  private bytes = 0;
  private next = 0;
  private readonly capture: TabCapture;

  /** `sessions`: the sessions of the tab now (its own, its frames', its workers'). */
  constructor(
    private readonly cdp: Cdp,
    sessions: () => Promise<(string | undefined)[]>,
  ) {
    this.capture = new TabCapture(cdp, sessions, {
      enable: (sessionId) => this.cdp.send('Network.enable', CAPTURE, sessionId).catch(() => undefined),
      onEvent: (event) => this.onEvent(event),
    });
  }

  /** Starts capture on every session of the tab, once; sessions that attach later are enabled as they come. */
  start(): Promise<void> {
    return this.capture.start();
  }

  /** From the first start on; the egress layers then leave Network on when they restore (networkEnableParams). */
  get capturing(): boolean {
    return this.capture.active;
  }

  dispose(): void {
    this.capture.dispose();
  }

  list(): readonly NetworkRecord[] {
    return this.records;
  }

  byId(id: number): NetworkRecord | undefined {
    return this.records.find((record) => record.id === id);
  }

  /** Notes what a route did with the request Chrome knows as `requestId` on `sessionId`, whenever its record comes. */
  markRouted(sessionId: string | undefined, requestId: string, routed: Routed): void {
    if (!this.capturing) return;
    const key = `${sessionId ?? ''}:${requestId}`;
    const record = this.live.get(key) ?? this.workerRecord(requestId);
    if (record) return void (record.routed = routed);
    this.keepEarly(key, { routed });
  }

  /**
   * A dedicated worker's request is paused (and routed) on the session of its page's frame, but told of on the worker's
   * own session, where it has no frame; both name it by the same network id, which is unique in its renderer (measured,
   * Chromium 156: "<process>.<n>", counted across the page and its workers).
   */
  private workerRecord(requestId: string): NetworkRecord | undefined {
    for (const record of this.live.values())
      if (record.requestId === requestId && record.frameId === undefined) return record;
    return undefined;
  }

  /** The newest id so far (0 before any request). */
  last(): number {
    return this.next;
  }

  private onEvent({ method, params, sessionId }: CdpEvent): void {
    const key = `${sessionId ?? ''}:${String(params['requestId'])}`;
    switch (method) {
      case 'Network.requestWillBeSent':
        return this.sent(key, params, sessionId);
      case 'Network.responseReceived':
        return this.received(key, params['response'] as Response);
      case 'Network.loadingFinished':
        return this.finished(key, params, undefined);
      case 'Network.loadingFailed':
        return this.finished(key, params, String(params['blockedReason'] ?? params['errorText'] ?? 'failed'));
      case 'Network.requestWillBeSentExtraInfo':
        return this.extra(key, params);
    }
  }

  /** What the network stack added (the cookie header): may arrive before the request it belongs to, or after. */
  private extra(key: string, params: Record<string, unknown>): void {
    const associated = (params['associatedCookies'] ?? []) as { blockedReasons?: unknown[] }[];
    const sent = associated.filter((each) => (each.blockedReasons ?? []).length === 0).length;
    const record = this.live.get(key);
    if (record) record.cookies = sent;
    else this.keepEarly(key, { cookies: sent });
  }

  private keepEarly(key: string, facts: Pick<NetworkRecord, 'routed' | 'cookies'>): void {
    this.early.set(key, { ...this.early.get(key), ...facts });
    keepNewest(this.early, MAX_EARLY);
  }

  private sent(key: string, params: Record<string, unknown>, sessionId: string | undefined): void {
    const redirect = params['redirectResponse'] as Response | undefined;
    // A redirect reuses its request id: the hop before it ends here, with the redirect's status.
    const before = this.live.get(key);
    if (before && redirect) {
      this.received(key, redirect);
      this.live.delete(key);
    }
    const request = params['request'] as { method: string; url: string; headers: Record<string, string> };
    const record: NetworkRecord = {
      id: ++this.next,
      method: request.method,
      url: request.url,
      type: String(params['type'] ?? 'Other'),
      started: Number(params['timestamp'] ?? 0),
      requestHeaders: request.headers,
      hasPostData: (request as { hasPostData?: boolean }).hasPostData === true,
      place: { url: String(params['documentURL'] ?? '') },
      frameId: typeof params['frameId'] === 'string' ? params['frameId'] : undefined,
      sessionId,
      requestId: String(params['requestId']),
    };
    // A worker's record (no frame) also takes what was told of its id on another session: a route's mark.
    const keys =
      record.frameId === undefined ? [...this.early.keys()].filter((each) => idOf(each) === record.requestId) : [key];
    for (const each of keys) {
      Object.assign(record, this.early.get(each));
      this.early.delete(each);
    }
    this.live.set(key, record);
    this.push(record);
  }

  private received(key: string, response: Response): void {
    const record = this.live.get(key);
    if (!record) return;
    record.status = response.status;
    record.mimeType = response.mimeType;
    record.responseHeaders = response.headers;
    this.bytes += weight(response.headers);
  }

  private finished(key: string, params: Record<string, unknown>, failed: string | undefined): void {
    const record = this.live.get(key);
    if (!record) return;
    this.live.delete(key);
    if (failed !== undefined) record.failed = failed;
    if (typeof params['encodedDataLength'] === 'number') record.size = params['encodedDataLength'];
    const at = Number(params['timestamp'] ?? 0);
    if (at > 0 && record.started > 0) record.ms = Math.round((at - record.started) * 1000);
  }

  private push(record: NetworkRecord): void {
    this.records.push(record);
    this.bytes += record.url.length + weight(record.requestHeaders);
    while (this.records.length > MAX_RECORDS || this.bytes > MAX_BYTES) {
      const dropped = this.records.shift()!;
      this.bytes -= dropped.url.length + weight(dropped.requestHeaders) + weight(dropped.responseHeaders);
      this.live.delete(`${dropped.sessionId ?? ''}:${dropped.requestId}`);
    }
  }
}

interface Response {
  status: number;
  mimeType: string;
  headers: Record<string, string>;
}

/** The request id in a `<session>:<request id>` key (a session id has no colon). */
function idOf(key: string): string {
  return key.slice(key.indexOf(':') + 1);
}

function weight(headers: Record<string, string> | undefined): number {
  if (!headers) return 0;
  let bytes = 0;
  for (const [name, value] of Object.entries(headers)) bytes += name.length + String(value).length;
  return bytes;
}

/** A request's body as Chrome still holds it, as base64 bytes; none when it had none or no longer has it. */
export type RequestBody = { base64: string; chars: number } | { none: string };

/** A kept body as text; undefined when its bytes are not UTF-8 text (an upload, a binary format). */
export function bodyText(body: { base64: string }): string | undefined {
  const bytes = Uint8Array.from(atob(body.base64), (char) => char.charCodeAt(0));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Asked for on demand (the log keeps no bodies): `maxChars` bounds what is taken, a longer one answers its size only. */
export async function requestBody(cdp: Cdp, record: NetworkRecord, maxChars: number): Promise<RequestBody> {
  if (!record.hasPostData) return { none: 'it had no body' };
  let answer: { postData: string; base64Encoded?: boolean };
  try {
    answer = await cdp.send('Network.getRequestPostData', { requestId: record.requestId }, record.sessionId);
  } catch {
    return { none: 'the browser no longer has its body' };
  }
  const chars = answer.postData.length;
  if (chars > maxChars) return { none: `its body of ${chars} chars is over the ${maxChars} taken` };
  return {
    base64: answer.base64Encoded ? answer.postData : base64Of(new TextEncoder().encode(answer.postData)),
    chars,
  };
}

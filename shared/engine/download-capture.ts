// Takes a download's bytes at the browser's response stage, before the browser saves anything: the document response
// a URL load or a click leads to is read as a stream under the size cap, then failed, so the tab stays where it was and
// no copy lands in a downloads folder. A download with no document response (a blob:, data: or same-origin
// `<a download>`) is reported by Page.downloadWillBegin for the caller to fetch itself.
import { ToolError } from '../protocol/errors.js';
import { MAX_FILE_BYTES, type PageFile } from '../protocol/operations.js';
import type { CdpEvent } from './cdp.js';
import { isDownloadResponse } from './download-response.js';
import type { PageContext } from './page-context.js';

export type Caught = { kind: 'file'; file: PageFile } | { kind: 'begun'; url: string; name: string; frameId: string };

interface PausedResponse {
  requestId: string;
  request: { url: string };
  frameId?: string;
  resourceType: string;
  responseStatusCode?: number;
  responseErrorReason?: string;
  responseHeaders?: { name: string; value: string }[];
}

// IO.read answers at most this much per call; a bigger read only grows each frame.
const READ_CHUNK = 1 << 20;

/**
 * `claim`: `main`, the next response of the main frame's document, whatever it is (a URL we load there ourselves);
 * `downloads`, the next document response of any frame that the browser would save as a file (after a click).
 */
export class DownloadCapture {
  readonly caught: Promise<Caught>;
  private settle: (caught: Caught) => void = () => undefined;
  private fail: (error: unknown) => void = () => undefined;
  private done = false;
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly page: PageContext,
    private readonly claim: { main: string } | 'downloads',
  ) {
    this.caught = new Promise<Caught>((resolve, reject) => {
      this.settle = resolve;
      this.fail = reject;
    });
    this.stops.push(page.frames.navigation.interceptFirst((event) => this.onPaused(event)));
    this.stops.push(page.cdp.on((event) => this.onEvent(event)));
  }

  stop(): void {
    this.done = true;
    for (const stop of this.stops.splice(0)) stop();
  }

  private onPaused(event: CdpEvent): boolean {
    const paused = event.params as unknown as PausedResponse;
    if (this.done || paused.resourceType !== 'Document' || paused.responseStatusCode === undefined) return false;
    const status = paused.responseStatusCode;
    const headers = paused.responseHeaders ?? [];
    // A redirect goes on to its next hop, which the navigation guard judges like any.
    if (status >= 300 && status < 400) return false;
    if (this.claim === 'downloads') {
      if (!isDownloadResponse(status, headers)) return false;
    } else if (event.sessionId !== undefined || paused.frameId !== this.claim.main) return false;
    this.done = true;
    void this.take(paused, event.sessionId).then(
      (file) => this.settle({ kind: 'file', file }),
      (error: unknown) => this.fail(error),
    );
    return true;
  }

  private onEvent(event: CdpEvent): void {
    if (this.done || event.method !== 'Page.downloadWillBegin') return;
    this.done = true;
    this.settle({
      kind: 'begun',
      url: String(event.params['url']),
      name: String(event.params['suggestedFilename'] ?? ''),
      frameId: String(event.params['frameId'] ?? ''),
    });
  }

  /** Reads the body under the cap, then fails the request: the browser neither shows nor saves it. */
  private async take(paused: PausedResponse, sessionId: string | undefined): Promise<PageFile> {
    const cdp = this.page.cdp;
    const header = (name: string) => paused.responseHeaders?.find((each) => each.name.toLowerCase() === name)?.value;
    try {
      const status = paused.responseStatusCode ?? 0;
      if (status >= 400)
        throw new ToolError('DOWNLOAD_FAILED', `${paused.request.url} answered HTTP ${status}; nothing was saved.`);
      const length = Number(header('content-length') ?? NaN);
      if (length > MAX_FILE_BYTES) throw tooLarge(length);
      const { stream } = await cdp.send<{ stream: string }>(
        'Fetch.takeResponseBodyAsStream',
        { requestId: paused.requestId },
        sessionId,
      );
      const bytes = await readAll(this.page, stream, sessionId);
      const disposition = header('content-disposition');
      return {
        name: '',
        mimeType: header('content-type')?.split(';')[0]?.trim().toLowerCase() || 'application/octet-stream',
        base64: toBase64(bytes),
        url: paused.request.url,
        ...(disposition ? { disposition } : {}),
      };
    } finally {
      // Aborted leaves the tab on its page: no error page commits (see navigation-guard.ts).
      void cdp
        .send('Fetch.failRequest', { requestId: paused.requestId, errorReason: 'Aborted' }, sessionId)
        .catch(() => undefined);
    }
  }
}

async function readAll(page: PageContext, stream: string, sessionId: string | undefined): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const read = await page.cdp.send<{ data: string; base64Encoded?: boolean; eof: boolean }>(
        'IO.read',
        { handle: stream, size: READ_CHUNK },
        sessionId,
      );
      const bytes = read.base64Encoded ? fromBase64(read.data) : new TextEncoder().encode(read.data);
      size += bytes.length;
      if (size > MAX_FILE_BYTES) throw tooLarge(size, true);
      chunks.push(bytes);
      if (read.eof) break;
    }
  } finally {
    void page.cdp.send('IO.close', { handle: stream }, sessionId).catch(() => undefined);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

export function tooLarge(size: number, atLeast = false): ToolError {
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  return new ToolError(
    'DOWNLOAD_TOO_LARGE',
    `The file is ${atLeast ? 'over ' : ''}${mib(size)}, over the cap of ${mib(MAX_FILE_BYTES)}; nothing was saved.`,
  );
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode takes its bytes as arguments, and a call has a bounded argument count.
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

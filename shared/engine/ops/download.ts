// download: a URL, a link, or what a click turns into, taken before the browser saves it (download-capture.ts) and
// handed to the core, which saves it into the app's own downloads folder. Off while the policy has downloads off.
import { ToolError } from '../../protocol/errors.js';
import {
  MAX_FILE_BYTES,
  type OperationContext,
  type OperationResult,
  type PageFile,
} from '../../protocol/operations.js';
import { policyError } from '../../protocol/policy-error.js';
import { evaluateDownload } from '../../policy/evaluate.js';
import type { DownloadArgs } from '../../tools/args.js';
import { withDeadline } from '../deadline.js';
import { DownloadCapture, type Caught } from '../download-capture.js';
import type { Frame } from '../frame.js';
import { refusedNavigationError } from '../navigation-guard.js';
import type { PageContext } from '../page-context.js';
import { resolveTarget, type ElementHandle } from '../targets.js';
import { withScheme } from './navigate.js';
import { clickElement, namesElement } from './pointer.js';

// A click's download starts within a task or two; a slow server's first byte may take longer than a click's handler.
const CLICK_WAIT_MS = 15_000;
const LOAD_WAIT_MS = 60_000;

export async function download(
  page: PageContext,
  args: DownloadArgs,
  _ctx: OperationContext,
): Promise<OperationResult> {
  if (args.url !== undefined) {
    if (namesElement(args)) throw new ToolError('BAD_ARGS', 'Give url or a target, not both.');
    return saved(await load(page, withScheme(args.url), ''));
  }
  if (!namesElement(args))
    throw new ToolError('BAD_ARGS', 'Give url, or name the link or button with ref or selector.');
  // Refused before anything is clicked or loaded: a click that only downloads would otherwise still have happened.
  requireDownloads(page, undefined);
  const handle = await resolveTarget(page, args, 'act');
  try {
    const link = await page.frames.call(handle.frame, 'downloadLink', [], { handles: [handle.objectId] });
    if (link) return saved(await fromUrl(page, handle.frame, link.href, link.name ?? ''));
    return saved(await clickFor(page, handle));
  } finally {
    page.frames.release(handle.frame, [handle.objectId]);
  }
}

function saved(file: PageFile): OperationResult {
  // The core replaces this with where the file went (core/files/save-download.ts).
  return { text: `downloaded ${file.url ?? file.name}`, file };
}

/** Throws the policy's refusal while downloads are off, or when `url` (if given) is on a site that may not be read. */
function requireDownloads(page: PageContext, url: string | undefined): void {
  const policy = page.gate.current();
  if (policy.downloads && url === undefined) return;
  const decision = evaluateDownload([url ?? ''], policy);
  if (!decision.allowed) throw policyError(decision);
}

/** A link's target: a blob: or data: URL exists only in the page and is read there; any other is loaded. */
function fromUrl(page: PageContext, frame: Frame, url: string, name: string): Promise<PageFile> {
  if (/^(blob|data):/i.test(url)) return inPage(page, frame, url, name);
  return load(page, url, name);
}

async function inPage(page: PageContext, frame: Frame, url: string, name: string): Promise<PageFile> {
  // A data: URL has no site of its own: it stands where the frame holding it does.
  requireDownloads(page, /^data:/i.test(url) ? page.frames.placeOf(frame).url : url);
  const read = await page.frames.call(frame, 'readPageUrl', [url, MAX_FILE_BYTES]);
  return { name, mimeType: read.mimeType || 'application/octet-stream', base64: read.base64 };
}

/**
 * Loads the URL in the tab's main frame and takes the response as the file, whatever it is. Every request and
 * redirect hop goes through the navigation guard like any navigation of ours, with the tab's own cookies; the response
 * is failed once read, so the tab stays on its page.
 */
async function load(page: PageContext, url: string, name: string): Promise<PageFile> {
  requireDownloads(page, url);
  const main = await page.frames.mainFrameUrl();
  const mark = page.frames.navigation.mark();
  const capture = new DownloadCapture(page, { main: main.id });
  try {
    const navigated = page.cdp.send<{ errorText?: string }>('Page.navigate', { url }).then(
      (reply) => reply.errorText ?? 'no response',
      (error: unknown) => String(error),
    );
    const first = await withDeadline(
      Promise.race([capture.caught, navigated.then((why) => ({ kind: 'ended' as const, why }))]),
      LOAD_WAIT_MS,
      () => ({ kind: 'ended' as const, why: `no answer within ${LOAD_WAIT_MS / 1000} s` }),
    );
    if (first.kind === 'file') return { ...first.file, name };
    const refused = page.frames.navigation.refusedSince(mark);
    if (refused) throw refusedNavigationError(refused, `download of ${url}`);
    throw new ToolError(
      'DOWNLOAD_FAILED',
      `${url} did not load (${first.kind === 'ended' ? first.why : 'no response'}).`,
    );
  } finally {
    capture.stop();
  }
}

/** Clicks and takes what the click starts: a response the browser would save, or a download begun in the page. */
async function clickFor(page: PageContext, handle: ElementHandle): Promise<PageFile> {
  const capture = new DownloadCapture(page, 'downloads');
  let caught: Caught | undefined;
  let what: string;
  try {
    what = await clickElement(page, handle);
    caught = await withDeadline(capture.caught, CLICK_WAIT_MS, () => undefined);
  } finally {
    capture.stop();
  }
  if (!caught)
    throw new ToolError(
      'DOWNLOAD_FAILED',
      `Clicked ${what}, but no download started within ${CLICK_WAIT_MS / 1000} s.`,
      {
        next: 'Check what the button does (`snapshot`), or download the URL it fetches.',
      },
    );
  if (caught.kind === 'file') {
    requireDownloads(page, caught.file.url);
    return caught.file;
  }
  const frame = (await page.frames.list()).find((each) => each.frameId === caught.frameId) ?? handle.frame;
  return fromUrl(page, frame, caught.url, caught.name);
}

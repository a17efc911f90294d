// screenshot: the viewport, the full page (height-clamped and flagged) or one element, in CSS pixels, without
// activating the tab: Page.captureScreenshot reads the tab's own compositor, so a background tab works.
import { ToolError } from '../../protocol/errors.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { ScreenshotArgs } from '../../tools/args.js';
import { withDeadline } from '../deadline.js';
import { revealedBox, type Box } from '../geometry.js';
import type { Frame } from '../frames.js';
import type { PageContext } from '../page-context.js';
import { resolveTarget } from '../targets.js';
import { perFrame, urlWithoutQuery } from './per-frame.js';
import { namesElement } from './pointer.js';

/** Past this Chrome's compositor fails or returns garbage; the image is clamped and says so. */
export const MAX_CAPTURE_PX = 16_384;
const DEFAULT_JPEG_QUALITY = 70;
/**
 * A capture copies the tab's next drawn frame, and Chrome may draw none for a tab in the background (headless never
 * does): past this the call ends with what to do instead of waiting for good. A drawn frame takes well under a second;
 * a capture beyond the viewport is drawn and encoded for it, which takes longer the more pixels (a 16,384 px page took
 * over 10 s on a loaded 2-core box), so it is given a second more per million pixels.
 */
const CAPTURE_TIMEOUT_MS = 10_000;
const CAPTURE_MS_PER_MEGAPIXEL = 1_000;

function captureTimeoutMs(width: number, height: number, beyondViewport: boolean): number {
  return beyondViewport
    ? CAPTURE_TIMEOUT_MS + Math.ceil((width * height) / 1e6) * CAPTURE_MS_PER_MEGAPIXEL
    : CAPTURE_TIMEOUT_MS;
}

interface LayoutMetrics {
  layoutViewport: { clientWidth: number };
  cssLayoutViewport: { clientWidth: number };
  cssVisualViewport: { pageX: number; pageY: number; clientWidth: number; clientHeight: number };
  cssContentSize: { width: number; height: number };
}

interface Capture {
  clip: Box;
  beyondViewport: boolean;
  label: string;
  truncatedFrom?: number;
}

export async function screenshot(
  page: PageContext,
  args: ScreenshotArgs,
  _ctx: OperationContext,
): Promise<OperationResult> {
  const targeted = namesElement(args);
  if (targeted && args.fullPage)
    throw new ToolError('BAD_ARGS', 'Take either an element (ref, selector, role) or fullPage, not both.');
  const format = args.format ?? 'jpeg';
  // Pixels are a read of every frame they show. Which frames a clip would show is layout we cannot fully trust (the
  // page can move an iframe at any time), so any frame whose site may not be read refuses the capture.
  const frames = await page.frames.list();
  const refused = frames.find((frame) => !page.frames.allows(frame, 'read'));
  if (refused) {
    try {
      page.frames.require(refused, 'read');
    } catch (error) {
      const denied = error as ToolError;
      throw denied.reworded(
        `screenshot refused: the page embeds ${denied.message.replace(/^Frame /, 'frame ')}`,
        'Use `snapshot` or `get_text`, which leave out that frame.',
      );
    }
  }
  const metrics = await page.cdp.send<LayoutMetrics>('Page.getLayoutMetrics');
  const shot = targeted
    ? await elementCapture(page, args)
    : args.fullPage
      ? fullPageCapture(metrics)
      : viewportCapture(metrics);
  const width = Math.max(1, Math.round(shot.clip.width));
  const height = Math.max(1, Math.round(shot.clip.height));
  // Layout-viewport width in device px over CSS px is the device pixel ratio (times zoom); dividing it out keeps the
  // image in CSS pixels, so a HiDPI screen does not quadruple what the model pays for.
  const dpr = metrics.layoutViewport.clientWidth / metrics.cssLayoutViewport.clientWidth || 1;
  const capture = () => {
    const captured = page.cdp.send<{ data: string }>('Page.captureScreenshot', {
      format,
      ...(format === 'jpeg' ? { quality: clampQuality(args.quality) } : {}),
      clip: { x: shot.clip.x, y: shot.clip.y, width, height, scale: 1 / dpr },
      captureBeyondViewport: shot.beyondViewport,
    });
    const timeoutMs = captureTimeoutMs(width, height, shot.beyondViewport);
    return withDeadline(captured, timeoutMs, () => {
      throw new ToolError(
        'TIMEOUT',
        `screenshot: the tab drew no frame within ${timeoutMs / 1000} s (Chrome may draw none for a tab in the background).`,
        {
          next: 'Bring the tab to the front with tab_use and focus: true, then take the screenshot again; snapshot and get_text need no frame.',
        },
      );
    });
  };
  const { data } = await withSecretsMasked(page, frames, capture);
  const kb = Math.round((data.length * 3) / 4 / 1024);
  const truncated = shot.truncatedFrom !== undefined ? `, truncated from ${shot.truncatedFrom} px tall` : '';
  return {
    text: `${shot.label} ${width}×${height} ${format} ${kb} KB${truncated}`,
    image: { data, mimeType: format === 'png' ? 'image/png' : 'image/jpeg' },
    data: { width, height, format, truncated: shot.truncatedFrom !== undefined },
  };
}

/**
 * Runs the capture with every frame's secret fields masked (page/capture-mask.ts), put back after, also when the
 * capture fails or times out. A frame that cannot be masked may be the one showing a password, so its silence refuses
 * the capture, as it refuses eval.
 */
async function withSecretsMasked<T>(page: PageContext, frames: Frame[], capture: () => Promise<T>): Promise<T> {
  const outcomes = await perFrame(frames, (frame) => page.frames.call(frame, 'maskSecretFields', [true]));
  const masked = outcomes
    .filter((outcome) => outcome.value !== undefined && outcome.value > 0)
    .map((outcome) => outcome.frame);
  try {
    const silent = outcomes.find((outcome) => outcome.error !== undefined);
    if (silent) {
      const where = `frame f${silent.frame.ordinal} ${urlWithoutQuery(silent.frame.url)}`;
      throw new ToolError(
        'FRAME_UNREADABLE',
        `screenshot refused: ${where} could not have its password and card fields masked (${silent.error}).`,
        {
          next: 'Take the screenshot again once the page has loaded; `snapshot` and `get_text` hide secret values without it.',
        },
      );
    }
    return await capture();
  } finally {
    await Promise.all(
      masked.map((frame) => page.frames.call(frame, 'maskSecretFields', [false]).catch(() => undefined)),
    );
  }
}

function viewportCapture(metrics: LayoutMetrics): Capture {
  const view = metrics.cssVisualViewport;
  return {
    clip: { x: view.pageX, y: view.pageY, width: view.clientWidth, height: view.clientHeight },
    beyondViewport: false,
    label: 'viewport',
  };
}

function fullPageCapture(metrics: LayoutMetrics): Capture {
  const { width, height } = metrics.cssContentSize;
  return {
    clip: { x: 0, y: 0, width: Math.min(width, MAX_CAPTURE_PX), height: Math.min(height, MAX_CAPTURE_PX) },
    beyondViewport: true,
    label: 'full page',
    ...(height > MAX_CAPTURE_PX ? { truncatedFrom: Math.round(height) } : {}),
  };
}

async function elementCapture(page: PageContext, args: ScreenshotArgs): Promise<Capture> {
  const handle = await resolveTarget(page, args);
  try {
    const box = await revealedBox(page, handle);
    if (box.width < 1 || box.height < 1) throw new ToolError('NOT_VISIBLE', 'The element has no visible size.');
    // Scrolling moved the page: read the scroll offset again to turn viewport coordinates into page coordinates.
    const { cssVisualViewport: view } = await page.cdp.send<LayoutMetrics>('Page.getLayoutMetrics');
    const height = Math.min(box.height, MAX_CAPTURE_PX);
    return {
      clip: { x: box.x + view.pageX, y: box.y + view.pageY, width: Math.min(box.width, MAX_CAPTURE_PX), height },
      beyondViewport:
        box.y < 0 || box.y + height > view.clientHeight || box.x < 0 || box.x + box.width > view.clientWidth,
      label: args.element ? `element (${args.element})` : 'element',
      ...(box.height > MAX_CAPTURE_PX ? { truncatedFrom: Math.round(box.height) } : {}),
    };
  } finally {
    page.frames.release(handle.frame, [handle.objectId]);
  }
}

function clampQuality(quality: number | undefined): number {
  return Math.min(100, Math.max(1, Math.round(quality ?? DEFAULT_JPEG_QUALITY)));
}

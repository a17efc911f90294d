// navigate: go to a URL or move through history, then wait for a real load signal of the new document.
import { ToolError } from '../../protocol/errors.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { NavigateArgs } from '../../tools/args.js';
import { navigate as tool } from '../../tools/navigation.js';
import { withDeadline } from '../deadline.js';
import { refusedNavigationError } from '../navigation-guard.js';
import { LoadWaiter } from '../load-waiter.js';
import type { PageContext } from '../page-context.js';

const DEFAULT_TIMEOUT_MS = tool.defaultTimeoutMs;
const GRACE_MS = 1_000;

interface NavigateResult {
  frameId: string;
  loaderId?: string;
  errorText?: string;
  isDownload?: boolean;
}

interface History {
  currentIndex: number;
  entries: { id: number; url: string; title: string }[];
}

export async function navigate(page: PageContext, args: NavigateArgs, ctx: OperationContext): Promise<OperationResult> {
  if ((args.url === undefined) === (args.action === undefined)) {
    throw new ToolError('BAD_ARGS', 'navigate takes either url or action (back, forward, reload).');
  }
  const timeout = args.timeout ?? DEFAULT_TIMEOUT_MS;
  // The agent asked to go: a "leave site?" guard on the way is answered by leaving, and the result says so.
  const { value, guard } = await page.dialogs.leavingPast(() =>
    // The load wait keeps to `timeout` with a precise answer; this bound covers a renderer too busy to answer at all.
    withDeadline(go(page, args, timeout, ctx), timeout + GRACE_MS, () => {
      throw new ToolError('TIMEOUT', `navigate: the tab did not answer within ${timeout} ms.`);
    }),
  );
  if (!guard) return value;
  return { text: `${value.text} (left past the page's "leave site?" guard)`, data: { ...value.data, leftGuard: true } };
}

async function go(
  page: PageContext,
  args: NavigateArgs,
  timeout: number,
  ctx: OperationContext,
): Promise<OperationResult> {
  const waitUntil = args.waitUntil ?? 'load';
  await page.frames.init();
  // Idempotent; it also replays the current document's events, which the waiter ignores by loader id.
  await page.cdp.send('Page.setLifecycleEventsEnabled', { enabled: true });
  // Through the registry, which then knows the main frame: the guard needs it to tell a refused top-level navigation
  // (the call's answer) from a refused iframe.
  const main = await page.frames.mainFrameUrl();
  const waiter = new LoadWaiter(page, main.id, (message) => ctx.progress(message));
  // A refused hop (a redirect, a history entry on a refused site) never loads: the wait ends with the refusal instead.
  let stopRefusals = (): void => undefined;
  const refusedLater = new Promise<never>((_, reject) => {
    stopRefusals = page.frames.navigation.onRefused((refused) =>
      reject(refusedNavigationError(refused, describe(args))),
    );
  });
  refusedLater.catch(() => undefined);
  try {
    if (args.url !== undefined) {
      const url = withScheme(args.url);
      ctx.progress(`navigating to ${url}`);
      const mark = page.frames.navigation.mark();
      const result = await page.cdp.send<NavigateResult>('Page.navigate', { url });
      const refused = page.frames.navigation.refusedSince(mark);
      if (refused) throw refusedNavigationError(refused, describe(args));
      if (result.errorText) throw new ToolError('NAVIGATION_FAILED', `${result.errorText} at ${url}`);
      if (result.isDownload)
        return { text: `${url} is a download; the tab stayed where it was.`, data: { download: true } };
      // No loader means a same-document navigation (a fragment): the waiter ends it at navigatedWithinDocument,
      // which can come after this answer, without any load event.
      if (result.loaderId !== undefined) waiter.expect(result.loaderId);
    } else if (args.action === 'reload') {
      ctx.progress('reloading');
      await page.cdp.send('Page.reload', {});
    } else {
      const history = await page.cdp.send<History>('Page.getNavigationHistory');
      const entry = history.entries[history.currentIndex + (args.action === 'back' ? -1 : 1)];
      if (!entry)
        throw new ToolError('NAVIGATION_FAILED', `There is no page to go ${args.action} to.`, {
          next: 'Call navigate with a url.',
        });
      ctx.progress(`going ${args.action} to ${entry.url}`);
      await page.cdp.send('Page.navigateToHistoryEntry', { entryId: entry.id });
    }
    await Promise.race([waiter.until(waitUntil, timeout, ctx.signal), refusedLater]);
  } finally {
    stopRefusals();
    waiter.dispose();
  }
  return landed(page);
}

/** Where the tab is now: final URL after redirects, title, and the HTTP status when it is not a success. */
async function landed(page: PageContext): Promise<OperationResult> {
  const history = await page.cdp.send<History>('Page.getNavigationHistory');
  const entry = history.entries[history.currentIndex];
  const url = entry?.url ?? '';
  const title = entry?.title ?? '';
  const status = await page.frames
    .mainFrame()
    .then((frame) => page.frames.call(frame, 'navigationStatus'))
    .catch(() => 0);
  const failed = status !== 0 && (status < 200 || status > 299);
  return {
    text: `${url} "${title}"${failed ? ` — HTTP ${status}` : ''}`,
    data: { url, title, ...(status ? { status } : {}) },
  };
}

function describe(args: NavigateArgs): string {
  return args.url !== undefined ? `navigate to ${withScheme(args.url)}` : `navigate ${args.action ?? ''}`.trim();
}

/** "example.com/x" means https; a bare localhost or IP means http, as a browser's address bar would read it. */
export function withScheme(url: string): string {
  if (/^(localhost|\d{1,3}(\.\d{1,3}){3})(:\d+)?(\/|$)/i.test(url)) return `http://${url}`;
  if (/^[a-z][a-z\d+.-]*:/i.test(url)) return url;
  return `https://${url}`;
}

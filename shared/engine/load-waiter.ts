// Waits for a main-frame navigation to reach a load state, from lifecycle events recorded since before it started.
import { ToolError } from '../protocol/errors.js';
import type { WAIT_UNTIL } from '../tools/navigation.js';
import type { CdpEvent } from './cdp.js';
import type { PageContext } from './page-context.js';

export type WaitUntil = (typeof WAIT_UNTIL)[number];

// Chrome's own lifecycle names; networkIdle means no requests for 500 ms, and it can fire before load.
const NEEDED: Record<WaitUntil, string[]> = {
  domcontentloaded: ['DOMContentLoaded'],
  load: ['load'],
  networkidle: ['load', 'networkIdle'],
};

/**
 * Subscribe before sending the command that navigates, so no event can slip past. The document to wait for is the
 * latest main-frame commit seen (a client redirect during load replaces it), else the loader Page.navigate named.
 */
export class LoadWaiter {
  private readonly seen = new Map<string, Set<string>>();
  /** Main-frame commits in order, by loader id. */
  private readonly commits: string[] = [];
  private expected: string | undefined;
  private sameDocument = false;
  private detached = false;
  private wake: (() => void) | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    page: PageContext,
    private readonly mainFrameId: string,
    private readonly progress: (message: string) => void,
  ) {
    this.unsubscribe = page.cdp.on((event) => this.onEvent(event));
  }

  /** The loader Page.navigate answered with; a commit seen later still wins. */
  expect(loaderId: string): void {
    this.expected = loaderId;
    this.wake?.();
  }

  async until(waitUntil: WaitUntil, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    try {
      for (;;) {
        if (this.detached) throw new ToolError('DETACHED', 'The tab went away while loading.');
        if (signal?.aborted) throw new ToolError('STOPPED', 'navigate: stopped while loading.');
        if (this.sameDocument) return;
        const loader = this.target();
        const names = loader === undefined ? undefined : this.seen.get(loader);
        if (names && NEEDED[waitUntil].every((name) => names.has(name))) return;
        const left = deadline - Date.now();
        if (left <= 0) {
          const stage =
            loader !== undefined && this.commits.includes(loader)
              ? `the page committed but did not reach ${waitUntil}`
              : 'the page never committed';
          throw new ToolError('TIMEOUT', `navigate: ${stage} within ${timeoutMs} ms.`);
        }
        await this.nextEvent(left, signal);
      }
    } finally {
      this.dispose();
    }
  }

  dispose(): void {
    this.unsubscribe();
    this.wake?.();
  }

  /**
   * The document to wait for: the newest commit once ours (if Page.navigate named one) has committed, since a client
   * redirect replaces it; a commit before ours belongs to an older navigation still in flight and does not count.
   */
  private target(): string | undefined {
    const latest = this.commits.at(-1);
    if (this.expected === undefined) return latest;
    return this.commits.includes(this.expected) ? latest : this.expected;
  }

  private nextEvent(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done);
      this.wake = done;
    });
  }

  private onEvent(event: CdpEvent): void {
    if (event.sessionId) return;
    const params = event.params;
    switch (event.method) {
      case 'Page.lifecycleEvent': {
        if (params['frameId'] !== this.mainFrameId) return;
        const loaderId = String(params['loaderId']);
        const names = this.seen.get(loaderId) ?? new Set<string>();
        names.add(String(params['name']));
        this.seen.set(loaderId, names);
        if (params['name'] === 'DOMContentLoaded' && loaderId === this.target())
          this.progress('DOM ready, waiting for the rest');
        break;
      }
      case 'Page.frameNavigated': {
        const frame = params['frame'] as { id: string; parentId?: string; loaderId: string; url: string };
        if (frame.id !== this.mainFrameId) return;
        this.commits.push(frame.loaderId);
        // A page back from the back-forward cache is the loaded document as it was left: no load event comes again.
        if (params['type'] === 'BackForwardCacheRestore')
          this.seen.set(frame.loaderId, new Set(Object.values(NEEDED).flat()));
        this.progress(`committed ${frame.url}`);
        break;
      }
      case 'Page.navigatedWithinDocument':
        // A fragment or history move within the document: no loader of its own, and no load event to wait for.
        if (params['frameId'] === this.mainFrameId && this.expected === undefined && this.commits.length === 0)
          this.sameDocument = true;
        break;
      case 'Inspector.detached':
        this.detached = true;
        break;
      default:
        return;
    }
    this.wake?.();
  }
}

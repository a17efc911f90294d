// The site's workers that no tab owns, lent to a tab's gate while it judges an act there (Cdp.lendWorkers). They pause
// at the browser's own interceptor (released-pauses.ts), kept wide while any tab has one: a Fetch.enable on a shared
// worker's own session pauses nothing unless it stood before the worker started, and even one sent as the worker is
// held waiting lost that race at times (measured, Chromium 156), while the browser's stands from the launch. Each pause
// goes to the tab that borrowed its worker last; one no tab has goes on, as the page's own requests do.
import type { CdpEvent } from '../../../shared/engine/cdp.js';

/** A worker as the browser attached it. */
export interface RunningWorker {
  targetId: string;
  origin: string | undefined;
}

/** A tab borrowing: hears of each worker it has (`told`), then that worker's pauses (`deliver`). */
export interface Borrower {
  told: (sessionId: string) => void;
  deliver: (event: CdpEvent) => void;
}

/** One tab's borrowing. */
interface Lending extends Borrower {
  origins: ReadonlySet<string>;
  /** Target ids of its workers. */
  targets: Set<string>;
}

/** What the browser's interceptor offers the lending: kept wide while held, its pauses offered first. */
export interface BrowserInterceptor {
  /** Keeps every request pausing there until `release`; `ready` settles once that stands. */
  keepWide(): { ready: Promise<void>; release(): void };
}

/** The session id a worker's pauses are told under, and answered by (attached-tab.ts sends those to the browser's). */
export function browserPauseSession(targetId: string): string {
  return `browser-pause:${targetId}`;
}

export class LentWorkers {
  /** In the order lent: the last that has a worker hears its pauses. */
  private readonly lendings: Lending[] = [];
  private wide: { ready: Promise<void>; release(): void } | undefined;

  constructor(private readonly interceptor: BrowserInterceptor) {}

  /**
   * Lends a tab the workers of `origins` among `running`, and those that start later (`starting`), until the returned
   * give-back; settles once the browser's interceptor pauses what they send.
   */
  async lend(origins: readonly string[], running: RunningWorker[], tab: Borrower): Promise<() => void> {
    const lending: Lending = { origins: new Set(origins), targets: new Set(), ...tab };
    this.lendings.push(lending);
    await Promise.all(running.map((worker) => this.take(lending, worker)));
    return () => this.giveBack(lending);
  }

  /** A worker starts, waiting before its first line: settles once each tab borrowing its origin has it. */
  starting(worker: RunningWorker): Promise<void> {
    return Promise.all(this.lendings.map((lending) => this.take(lending, worker))).then(() => undefined);
  }

  gone(targetId: string): void {
    for (const lending of this.lendings) lending.targets.delete(targetId);
  }

  /** A request paused at the browser's interceptor: taken (true) when it is a lent worker's, for its tab to answer. */
  takePause(params: Record<string, unknown>): boolean {
    const targetId = String(params['frameId']);
    const owner = this.lendings.findLast((lending) => lending.targets.has(targetId));
    owner?.deliver({ method: 'Fetch.requestPaused', params, sessionId: browserPauseSession(targetId) });
    return owner !== undefined;
  }

  /** Widens the browser's interceptor only once a tab has a worker: a site with none pays nothing for its acts. */
  private async take(lending: Lending, worker: RunningWorker): Promise<void> {
    if (worker.origin === undefined || !lending.origins.has(worker.origin)) return;
    lending.targets.add(worker.targetId);
    lending.told(browserPauseSession(worker.targetId));
    this.wide ??= this.interceptor.keepWide();
    await this.wide.ready;
  }

  private giveBack(lending: Lending): void {
    const index = this.lendings.indexOf(lending);
    if (index < 0) return;
    this.lendings.splice(index, 1);
    if (this.lendings.some((each) => each.targets.size > 0)) return;
    this.wide?.release();
    this.wide = undefined;
  }
}

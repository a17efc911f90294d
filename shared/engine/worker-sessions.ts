// The sessions of a tab's dedicated workers: auto-attach pauses each one at its start, and it runs once every preparer
// (the egress hold putting its rules on it) is done with it. And the service workers the tab's auto-attach brings,
// whose own requests meet the tab's routes (network-routes.ts).
import type { Cdp, CdpEvent } from './cdp.js';
import { withDeadline } from './deadline.js';
import { CHILD_LIST_TIMEOUT_MS } from './frame-tree.js';
import { WorkerUpdateSwitch } from './worker-update-switch.js';

export class WorkerSessions {
  /** What each new worker of the tab waits for before it runs. */
  private readonly preparers = new Set<(sessionId: string) => Promise<unknown>>();
  /** The sessions of the tab's workers that are running now. */
  private readonly running = new Set<string>();
  /** The script URL of each service worker session the tab's auto-attach brought. */
  private readonly serviceWorkers = new Map<string, string>();
  private readonly unsubscribe: () => void;
  /** What a service worker's session leaves on in the browser when it goes (worker-update-switch.ts). */
  private readonly updates: WorkerUpdateSwitch;

  /** `enableServiceWorker` puts the tab's Fetch (the navigation guard's, with the routes' patterns) on one. */
  constructor(
    private readonly cdp: Cdp,
    private readonly enableServiceWorker: (sessionId: string) => Promise<void>,
  ) {
    this.unsubscribe = cdp.on((event) => this.onEvent(event));
    this.updates = new WorkerUpdateSwitch(cdp, (sessionId) => this.serviceWorkers.has(sessionId));
  }

  dispose(): void {
    this.unsubscribe();
    this.updates.dispose();
  }

  /** Lets the service workers' sessions where requests paused go, while the tab still answers: before it closes. */
  release(): Promise<void> {
    return this.updates.release();
  }

  /** The sessions of the tab's running workers (dedicated ones: the page's own session attaches those). */
  sessions(): string[] {
    return [...this.running];
  }

  /** The script URL of the service worker on `sessionId`; undefined for any other session. */
  serviceWorkerUrl(sessionId: string | undefined): string | undefined {
    return sessionId === undefined ? undefined : this.serviceWorkers.get(sessionId);
  }

  /** Whether a route may fulfil or fail a service worker's requests here (worker-update-switch.ts `canSwitchOff`). */
  mayAnswerWorkers(): Promise<boolean> {
    return this.updates.canSwitchOff();
  }

  /** Whether a service worker of the tab's sites runs on a session of the tab. */
  hasServiceWorker(): boolean {
    return this.serviceWorkers.size > 0;
  }

  /** `prepare` runs on each worker the tab starts from now on, before the worker's first line; returns the undo. */
  onStart(prepare: (sessionId: string) => Promise<unknown>): () => void {
    this.preparers.add(prepare);
    return () => this.preparers.delete(prepare);
  }

  /**
   * A worker that could not be prepared (within a child frame's listing bound) stays paused: run, it would send past
   * what should have held it.
   */
  private async start(sessionId: string): Promise<void> {
    const preparing = [...this.preparers].map((prepare) => prepare(sessionId));
    const prepared = Promise.all(preparing).then(
      () => true,
      () => false,
    );
    if (!(await withDeadline(prepared, CHILD_LIST_TIMEOUT_MS, () => false))) return;
    await this.cdp.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => undefined);
  }

  private onEvent(event: CdpEvent): void {
    if (event.method === 'Target.attachedToTarget') {
      // Frames are the frame tree's (frame-tree.ts); every other target auto-attach brings is a worker.
      const { type } = event.params['targetInfo'] as { type: string };
      if (type === 'iframe') return;
      const sessionId = String(event.params['sessionId']);
      // A service or shared worker is no tab's own: none of the tab's rules reach its requests (measured), and it
      // answers no command while paused, so preparing it would leave it paused and every later hold waiting on it.
      // It runs at once; a host that can hold it does so from the browser's side (the fallback, cdp-tab-host.ts).
      if (type === 'service_worker' || type === 'shared_worker') {
        // A service worker Chrome relates to this tab (one of its frames' origins) comes here, in both backends (a
        // shared worker never does: measured, Chromium 156); Fetch on its own session pauses its requests, also
        // those it makes for a page's request it answers. Sent first, so it is on before the worker runs on.
        if (type === 'service_worker') {
          this.serviceWorkers.set(sessionId, String((event.params['targetInfo'] as { url?: string }).url ?? ''));
          void this.enableServiceWorker(sessionId).catch(() => undefined);
        }
        if (event.params['waitingForDebugger'] === true)
          void this.cdp.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => undefined);
        return;
      }
      // Workers are not ours to read, but auto-attach paused them: they run once what watches their requests is on.
      this.running.add(sessionId);
      if (event.params['waitingForDebugger'] === true) void this.start(sessionId);
    } else if (event.method === 'Target.detachedFromTarget') {
      this.running.delete(String(event.params['sessionId']));
      this.serviceWorkers.delete(String(event.params['sessionId']));
    }
  }
}

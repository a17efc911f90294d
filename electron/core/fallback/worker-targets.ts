// The browser's shared and service workers, which no tab's sessions reach (measured: neither Fetch nor setBlockedURLs
// on the page): one made from a blob: or data: URL reaches its own origin only for its life; any other does so once a
// tab of its origin has run an agent's script, since a message the script posts makes the site's own worker send. A
// tab's gate borrows those of its origins while it judges an act there (`lend`).
import { AllowedOrigins } from '../../../shared/engine/egress-origins.js';
import type { CdpConnection } from './cdp-connection.js';
import { LentWorkers, type Borrower } from './lent-workers.js';
import type { ReleasedPauses } from './released-pauses.js';

interface Worker {
  targetId: string;
  origin: string | undefined;
  held: boolean;
}

export class WorkerTargets {
  /** Per browser-level session: every shared and service worker stays attached, as its rules live in its session. */
  private readonly workers = new Map<string, Worker>();
  /** Origins where a tab ran an agent's script, each with the holding of the workers it had then. */
  private readonly scripted = new Map<string, Promise<void>>();
  private readonly lent: LentWorkers;

  constructor(
    private readonly connection: CdpConnection,
    interceptor: ReleasedPauses,
  ) {
    this.lent = new LentWorkers(interceptor);
    interceptor.takeFirst((params) => this.lent.takePause(params));
    connection.on((event) => {
      if (event.method !== 'Target.detachedFromTarget' || event.sessionId !== undefined) return;
      const sessionId = String(event.params['sessionId']);
      const worker = this.workers.get(sessionId);
      this.workers.delete(sessionId);
      if (worker) this.lent.gone(worker.targetId);
    });
  }

  /**
   * A worker the browser-level auto-attach brought (paused when it is starting): held before its first line when it
   * must be, then let run. One the browser would not hold stays paused: run, it would send.
   */
  attached(sessionId: string, targetId: string, url: string, waiting: boolean): void {
    const origin = originOf(url);
    const worker: Worker = { targetId, origin, held: false };
    this.workers.set(sessionId, worker);
    const now = /^(blob|data):/.test(url) || (origin !== undefined && this.scripted.has(origin));
    const lent = this.lent.starting(worker);
    void Promise.all([now ? this.hold(sessionId, worker) : Promise.resolve(true), lent]).then(([held]) => {
      if (held && waiting)
        void this.connection.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => undefined);
    });
  }

  /** Lends a tab's gate the workers of `origins`, running and starting, until the give-back (lent-workers.ts). */
  lend(origins: readonly string[], tab: Borrower): Promise<() => void> {
    return this.lent.lend(origins, [...this.workers.values()], tab);
  }

  /**
   * A tab of `origin` runs an agent's script: its workers reach their own origin only, from now on. Told before the
   * script is sent (cdp-tab-host.ts), and settles once the running ones are held, so even a message the script posts
   * in its first moment meets a held worker. Never rejects: a worker that could not be held is one that went away.
   */
  scriptRan(origin: string): Promise<void> {
    let holding = this.scripted.get(origin);
    if (!holding) {
      const running = [...this.workers].filter(([, worker]) => worker.origin === origin && !worker.held);
      holding = Promise.all(running.map(([sessionId, worker]) => this.hold(sessionId, worker))).then(() => undefined);
      this.scripted.set(origin, holding);
    }
    return holding;
  }

  private hold(sessionId: string, worker: Worker): Promise<boolean> {
    worker.held = true;
    // A data: worker's origin is opaque: it reaches no origin at all.
    const allowed = new AllowedOrigins([worker.origin]);
    const { connection } = this;
    return Promise.all([
      connection.send(
        'Network.enable',
        { maxTotalBufferSize: 0, maxResourceBufferSize: 0, maxPostDataSize: 0 },
        sessionId,
      ),
      connection.send('Network.setBlockedURLs', { urlPatterns: allowed.blockPatterns() }, sessionId),
      connection.send(
        'Network.emulateNetworkConditionsByRule',
        { matchedNetworkConditions: allowed.rules() },
        sessionId,
      ),
    ]).then(
      () => true,
      () => false,
    );
  }
}

/** A worker's origin (a blob: URL's is its creator's); undefined when opaque or unparsable. */
export function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

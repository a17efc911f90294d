// The start of a capture that spans every session of a tab (its own, its frames', its workers'): listen first, then
// enable the domains on the sessions there now, and on each session that attaches later. The console and network
// logs each run one.
import type { Cdp, CdpEvent } from './cdp.js';

export interface CaptureSteps {
  /**
   * Switches the capture's domains on in one session; a session gone meanwhile must not fail the others.
   * `targetType`: what attached (iframe, worker…), for a session that attached after the start.
   */
  enable(sessionId: string | undefined, targetType?: string): Promise<unknown>;
  /** Every event of the tab, from the moment the capture starts. */
  onEvent(event: CdpEvent): void;
}

export class TabCapture {
  private started: Promise<void> | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly cdp: Cdp,
    /** The sessions of the tab now: its own (undefined), its frames' and its workers'. */
    private readonly sessions: () => Promise<(string | undefined)[]>,
    private readonly steps: CaptureSteps,
  ) {}

  /** Starts the capture once; later calls wait for that start. */
  start(): Promise<void> {
    this.started ??= (async () => {
      this.unsubscribe = this.cdp.on((event) => {
        if (event.method === 'Target.attachedToTarget') {
          const info = event.params['targetInfo'] as { type?: string } | undefined;
          void this.steps.enable(String(event.params['sessionId']), info?.type);
        }
        this.steps.onEvent(event);
      });
      await Promise.all([...new Set(await this.sessions())].map((sessionId) => this.steps.enable(sessionId)));
    })();
    return this.started;
  }

  get active(): boolean {
    return this.started !== undefined;
  }

  dispose(): void {
    this.unsubscribe?.();
  }
}

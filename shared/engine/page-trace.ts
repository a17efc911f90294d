// A tab's one performance trace through the Tracing domain (measured: allowed on a tab target through
// chrome.debugger as over the launch pipe, Chromium 156): started by an agent, folded into a digest as its events
// stream in at the end, and ended cleanly when the tab's context goes (tab closed, debugger detached, session over).
import { ToolError } from '../protocol/errors.js';
import { CdpCommandError, type Cdp, type CdpEvent } from './cdp.js';
import { TraceDigest, type TraceEvent } from './trace-digest.js';

/**
 * What the trace records: the DevTools timeline (tasks, scripts, layout, requests, frames), page-load marks and
 * paints (LCP, layout shifts). Left out: `toplevel` and `v8.execute`, with which the test page's trace measured
 * 4.5× larger (6.0 MB against 1.3 MB of JSON for 3 s) for nothing these findings use.
 */
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'loading', 'blink.user_timing'];
/**
 * Chrome keeps the trace in a buffer of this much and stops recording when it fills (recordUntilFull keeps the load
 * at the start, and the answer says the buffer filled), so a trace left running holds no more than this. Measured
 * here: the test page wrote ~0.4 MB of JSON a second; how many seconds the buffer holds was not measured.
 */
const BUFFER_KB = 4096;
/** How long the end may take to hand over the events. */
const FLUSH_MS = 20_000;

export interface TraceStopped {
  digest: TraceDigest;
  /** Seconds traced. */
  seconds: number;
  /** The buffer filled: what came after was not recorded. */
  full: boolean;
  /** The tab's last network record before the trace: those after it are the trace's requests. */
  firstRequest: number;
  /** The handover did not finish in time: the findings cover what arrived. */
  cut: boolean;
}

interface Running {
  owner: string;
  digest: TraceDigest;
  startedAt: number;
  firstRequest: number;
  unsubscribe: () => void;
  complete: Promise<boolean>;
}

export class PageTrace {
  private running: Running | undefined;

  constructor(private readonly cdp: Cdp) {}

  /** The agent whose trace runs on the tab, if any. */
  get owner(): string | undefined {
    return this.running?.owner;
  }

  /** Starts tracing the tab for `owner`; `mainFrameId` is the tab's top frame, `firstRequest` the network log's last id. */
  async start(owner: string, mainFrameId: string, firstRequest: number): Promise<void> {
    const digest = new TraceDigest(mainFrameId);
    let completed: (full: boolean) => void = () => undefined;
    const complete = new Promise<boolean>((resolve) => (completed = resolve));
    // The tab's own session only: Tracing there records the tab's processes, frames and workers included.
    const unsubscribe = this.cdp.on((event: CdpEvent) => {
      if (event.sessionId !== undefined) return;
      if (event.method === 'Tracing.dataCollected') digest.add(event.params['value'] as TraceEvent[]);
      else if (event.method === 'Tracing.tracingComplete') completed(event.params['dataLossOccurred'] === true);
    });
    this.running = { owner, digest, startedAt: Date.now(), firstRequest, unsubscribe, complete };
    try {
      await this.cdp.send('Tracing.start', {
        transferMode: 'ReportEvents',
        traceConfig: { recordMode: 'recordUntilFull', traceBufferSizeInKb: BUFFER_KB, includedCategories: CATEGORIES },
      });
    } catch (error) {
      this.running = undefined;
      unsubscribe();
      // Chrome traces a target once at a time: the person's DevTools may be recording this tab.
      const why = error instanceof CdpCommandError ? error.cdpMessage : String(error);
      throw new ToolError('CDP_ERROR', `The browser would not start a trace: ${why.slice(0, 200)}`, {
        next: 'If DevTools records a performance profile of this tab, stop it there, then start again.',
      });
    }
  }

  /** Ends the trace and answers its digest once Chrome has handed over every event (or FLUSH_MS passed). */
  async stop(): Promise<TraceStopped | undefined> {
    const run = this.running;
    if (!run) return undefined;
    this.running = undefined;
    const ended = await this.end(run);
    return {
      digest: run.digest,
      seconds: (Date.now() - run.startedAt) / 1000,
      full: ended === 'full',
      cut: ended === 'cut',
      firstRequest: run.firstRequest,
    };
  }

  /** Ends a running trace and drops what it gathered: its tab or its agent is gone. */
  async discard(): Promise<void> {
    const run = this.running;
    if (!run) return;
    this.running = undefined;
    // The tab may be gone already, and its trace with it.
    await this.end(run).catch(() => undefined);
  }

  /** Chrome refuses a new start until the last trace's events are handed over: wait for that, boundedly. */
  private async end(run: Running): Promise<'full' | 'done' | 'cut'> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await this.cdp.send('Tracing.end');
      const timedOut = new Promise<'cut'>((resolve) => (timer = setTimeout(() => resolve('cut'), FLUSH_MS)));
      const ended = await Promise.race([run.complete, timedOut]);
      return ended === 'cut' ? 'cut' : ended ? 'full' : 'done';
    } finally {
      clearTimeout(timer);
      run.unsubscribe();
    }
  }
}

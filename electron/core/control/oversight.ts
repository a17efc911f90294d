// The person's hold on the agent: stop and resume (with a signal in-flight work watches), interjections queued for the
// agent's next tool result, and the plan the agent posts for approval.
import { ControlError } from '../../../shared/control/errors.js';
import type { Plan, Stopped } from '../../../shared/control/oversight.js';
import { ToolError } from '../../../shared/protocol/errors.js';
import type { Activity } from './activity.js';
import { notifyAll } from './notify.js';

const DEFAULT_STOP_MESSAGE = 'The person stopped the agent.';

/** The error every call returns while stopped, carrying the person's words. */
export function stoppedError(stopped: Stopped): ToolError {
  return new ToolError('STOPPED', `Stopped by the person: ${stopped.message}`, {
    next: 'Do not retry or work around it: wait until the person resumes, and take their message into account.',
  });
}

export class Oversight {
  private halted: Stopped | null = null;
  private controller = new AbortController();
  private readonly stopListeners = new Set<(stopped: Stopped) => void>();
  private queue: string[] = [];
  private posted: Plan | null = null;

  constructor(
    private readonly activity: Activity,
    private readonly now: () => number = Date.now,
  ) {}

  stopped(): Stopped | null {
    return this.halted;
  }

  /** Aborted while stopped (its reason is the STOPPED error); a fresh one after resume, so watch the current one per call. */
  stopSignal(): AbortSignal {
    return this.controller.signal;
  }

  onStop(listener: (stopped: Stopped) => void): () => void {
    this.stopListeners.add(listener);
    return () => this.stopListeners.delete(listener);
  }

  /** Stopping again only replaces the message: in-flight work was already told. */
  stop(message = DEFAULT_STOP_MESSAGE): Stopped {
    const first = this.halted === null;
    this.halted = { message, since: this.halted?.since ?? this.now() };
    this.activity.emit({ type: 'stop', message });
    if (!first) return this.halted;
    const halted = this.halted;
    this.controller.abort(stoppedError(halted));
    notifyAll(this.stopListeners, halted);
    return halted;
  }

  resume(): void {
    if (!this.halted) return;
    this.halted = null;
    this.controller = new AbortController();
    this.activity.emit({ type: 'resume' });
  }

  /** Queues a message for the agent's next tool result; returns how many wait. */
  interject(message: string): number {
    this.queue.push(message);
    this.activity.emit({ type: 'interjection', change: 'queued', message });
    return this.queue.length;
  }

  queued(): number {
    return this.queue.length;
  }

  /** Everything queued, oldest first, each handed over exactly once. */
  takeInterjections(): string[] {
    const taken = this.queue;
    this.queue = [];
    for (const message of taken) this.activity.emit({ type: 'interjection', change: 'delivered', message });
    return taken;
  }

  /** A new plan replaces the old one and needs approval again. */
  setPlan(steps: readonly string[], askFirst: boolean): Plan {
    this.posted = { steps: [...steps], askFirst, approved: false, posted: this.now() };
    this.activity.emit({ type: 'plan', change: 'posted', plan: this.posted });
    return this.posted;
  }

  plan(): Plan | null {
    return this.posted;
  }

  approvePlan(): Plan {
    if (!this.posted)
      throw new ControlError('NOT_FOUND', 'The agent has not posted a plan: there is nothing to approve.');
    this.posted = { ...this.posted, approved: true };
    this.activity.emit({ type: 'plan', change: 'approved', plan: this.posted });
    return this.posted;
  }
}

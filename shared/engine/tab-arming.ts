// The arm-on-first-user, restore-on-last cycle of a tab's sessions, shared by the act gate's widening (tab-gate.ts)
// and the eval hold (egress-hold.ts): however many users overlap on the tab, it is armed once and restored once.
import { withDeadline } from './deadline.js';

/** What one kind of arming does to a tab; the cycle decides when. */
export interface ArmingSteps {
  /** Arms the tab's sessions, `track`ing each one so the restore reaches it; rejects when the tab cannot be armed. */
  arm(): Promise<void>;
  /** Restores the sessions armed; a session that fails (a frame gone) must not keep the others armed. */
  restore(sessions: (string | undefined)[]): Promise<unknown>;
  /** The listeners the armed tab needs (see `listen`); returns their undo. */
  hook(): () => void;
  /** How long a restore is waited for before the listeners go: a busy session applies it when it is free. */
  restoreTimeoutMs: number;
  /** Runs once the listeners are gone, with no arming since. */
  unhooked?(): void;
}

export class TabArming {
  private users = 0;
  /** The arming in force or under way; undefined while the tab is not armed. */
  private armed: Promise<void> | undefined;
  private readonly sessions = new Set<string | undefined>();
  /** Undoes the steps' listeners; kept until a restore is answered, so nothing the armed tab paused goes unhandled. */
  private unhook: (() => void) | undefined;

  constructor(private readonly steps: ArmingSteps) {}

  /** True from the first user's arming until the last user leaves. */
  get active(): boolean {
    return this.armed !== undefined;
  }

  /** One more user: the first arms the tab, the others wait for it. Pair each with a `leave`, even on a rejection. */
  join(): Promise<void> {
    this.users++;
    this.armed ??= this.steps.arm();
    return this.armed;
  }

  /** One user fewer: the last one restores the tab, not awaited: commands on a session apply in order. */
  leave(): void {
    if (--this.users === 0) void this.restore();
  }

  /** A session armed, by the arming or later (a frame or worker that came meanwhile): the restore reaches it. */
  track(sessionId: string | undefined): void {
    this.sessions.add(sessionId);
  }

  /** Puts the steps' listeners in place unless they are; `arm` calls it once it is ready for their events. */
  listen(): void {
    this.unhook ??= this.steps.hook();
  }

  /**
   * Restores every session armed, sent at once so that a user arming the tab again meanwhile sends its own commands
   * after these. An arming that failed has settled by now (its user leaves only after it), so there is no race.
   */
  private async restore(): Promise<void> {
    this.armed = undefined;
    const sessions = [...this.sessions];
    this.sessions.clear();
    await withDeadline(this.steps.restore(sessions), this.steps.restoreTimeoutMs, () => undefined);
    if (this.armed !== undefined) return;
    this.unhook?.();
    this.unhook = undefined;
    this.steps.unhooked?.();
  }
}

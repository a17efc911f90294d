// Risky acts the engine holds until the person decides: kept by id here, released or rejected in the backend that holds
// the act's record, each outcome (and why one is gone) in the activity stream.
import { ControlError } from '../../../shared/control/errors.js';
import { HELD_WHY_CHARS, type HeldAct, type HeldCard, type HeldDecision } from '../../../shared/control/held.js';
import { redactText } from '../../../shared/redact/text.js';
import type { Activity } from './activity.js';

/** Releases (`release`) or rejects the request behind a held act; throws (saying why) when it is gone, unsent. */
export type HeldReleaser = (id: string, release: boolean) => Promise<void>;

export class HeldActs {
  private readonly pending = new Map<string, HeldAct>();

  constructor(
    private readonly activity: Activity,
    private readonly releaser: HeldReleaser,
    private readonly now: () => number = Date.now,
  ) {}

  add(card: HeldCard): HeldAct {
    const act = { ...card, held: this.now() };
    this.pending.set(card.id, act);
    this.activity.emit({ type: 'held', change: 'added', act });
    return act;
  }

  list(): HeldAct[] {
    return [...this.pending.values()];
  }

  count(): number {
    return this.pending.size;
  }

  /**
   * The person's decision. `gone`: nothing was sent, and `why` says what happened first (its page changed, the browser
   * that held it went away).
   */
  async decide(id: string, release: boolean): Promise<HeldDecision> {
    const act = this.pending.get(id);
    if (!act)
      throw new ControlError(
        'NOT_FOUND',
        `No held act "${id.slice(0, 100)}" is waiting: it was decided already, or never held. Call held.list for the ones that wait.`,
      );
    this.pending.delete(id);
    try {
      await this.releaser(id, release);
    } catch (error) {
      return this.gone(act, error instanceof Error ? error.message : String(error));
    }
    const outcome = release ? 'released' : 'rejected';
    this.activity.emit({ type: 'held', change: outcome, act });
    return { outcome };
  }

  /** The backend holding `id` went away: its card goes at once, marked gone, before anyone presses Send. */
  expire(id: string, why: string): void {
    const act = this.pending.get(id);
    if (!act) return;
    this.pending.delete(id);
    this.gone(act, why);
  }

  private gone(act: HeldAct, why: string): HeldDecision {
    const told = redactText(why).slice(0, HELD_WHY_CHARS);
    this.activity.emit({ type: 'held', change: 'gone', act, why: told });
    return { outcome: 'gone', why: told };
  }
}

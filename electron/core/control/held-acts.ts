// Risky acts the engine holds until the person decides: kept by id here, released or rejected in the backend that holds
// the paused request, each outcome in the activity stream.
import { ControlError } from '../../../shared/control/errors.js';
import type { HeldAct, HeldCard, HeldOutcome } from '../../../shared/control/held.js';
import type { Activity } from './activity.js';

/** Releases (`release`) or rejects the paused request behind a held act; throws when it is gone with its page. */
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

  /** The person's decision. `gone`: the page changed or closed meanwhile, so nothing was sent. */
  async decide(id: string, release: boolean): Promise<HeldOutcome> {
    const act = this.pending.get(id);
    if (!act) throw new ControlError('NOT_FOUND', `No held act "${id.slice(0, 100)}" is waiting: it was decided already, or never held. Call held.list for the ones that wait.`);
    this.pending.delete(id);
    let outcome: HeldOutcome;
    try {
      await this.releaser(id, release);
      outcome = release ? 'released' : 'rejected';
    } catch {
      outcome = 'gone';
    }
    this.activity.emit({ type: 'held', change: outcome, act });
    return outcome;
  }
}

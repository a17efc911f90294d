// What the script trail stopped outside any eval, kept for the next result to name: the first few, and how many in all.
import type { Send } from './egress-ledger.js';

const LISTED = 50;

export class LateSends {
  private sends: Send[] = [];
  private count = 0;

  note(send: Send): void {
    this.count++;
    if (this.sends.length < LISTED) this.sends.push(send);
  }

  /** What was stopped since the last take. */
  take(): { sends: Send[]; count: number } {
    const taken = { sends: this.sends, count: this.count };
    this.sends = [];
    this.count = 0;
    return taken;
  }
}

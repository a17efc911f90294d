// One round trip through a renderer after an act's input answered, shared by everything after the act that waits on it.
import type { Cdp } from './cdp.js';

/**
 * Made per act, used only once its input has answered. What the act's handlers started (a navigation, a send the gate
 * must judge) reaches us on other channels than our commands; a round trip through the renderer lets it arrive first.
 * The url watch and the act window both need that round trip after the same input: one per session serves both,
 * instead of two in a row on an untrusted page.
 */
export class ActFlush {
  private readonly flushes = new Map<string, Promise<void>>();

  constructor(private readonly cdp: Cdp) {}

  /** The round trip through the renderer of `sessionId` (the tab's own when undefined); failing, it still resolves. */
  through(sessionId: string | undefined): Promise<void> {
    const key = sessionId ?? '';
    let flush = this.flushes.get(key);
    if (!flush) {
      flush = this.cdp.send('Runtime.evaluate', { expression: '0', returnByValue: true }, sessionId).then(
        () => undefined,
        () => undefined,
      );
      this.flushes.set(key, flush);
    }
    return flush;
  }
}

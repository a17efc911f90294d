// What a late-send case needs of the tab it runs on, in either backend, so the case is written once (late-srcdoc.ts,
// late-handlers.ts, late-documents.ts) and each backend's test file runs it on its own tab.
import type { OperationResult } from '../../shared/protocol/operations.js';
import type { WatchedSite } from './watched-site.js';

export interface LateTab {
  /** The site the policy lets the agent act on: only the script hold stands between a late send and it. */
  readonly watched: WatchedSite;
  /** The agent's eval of `expression` on the tab. */
  run(expression: string): Promise<OperationResult>;
  /** `expression` run as the page's own code (awaited), with no eval open. */
  asPage(expression: string): Promise<unknown>;
  /** The person's click at the page's top left corner: the mouse, through the browser's input, not a script's event. */
  personClicks(): Promise<void>;
  /** Waits for the page's own marker that a late step has run (a real signal, not a sleep). */
  until(marker: string): Promise<void>;
  /** The paths that reached the watched site, but for the page's own send, once that has arrived. */
  reached(): Promise<string[]>;
  /** The result's list of what was held since the last one, with the watched origin written as W. */
  heldLater(result: OperationResult): string[];
}

/**
 * What reached the watched site once the page set `marker` and `settleMs` more passed (a hold on the page's own sends
 * that ends by then), and the list of the first result naming a hold within 10 s (a window's may be told a moment
 * after it opened).
 */
export async function lateOutcome(
  tab: LateTab,
  marker: string,
  settleMs = 0,
): Promise<{ reached: string[]; heldLater: string[] }> {
  await tab.until(marker);
  if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
  const reached = await tab.reached();
  let heldLater = tab.heldLater(await tab.run('1'));
  for (const deadline = Date.now() + 10_000; heldLater.length === 0 && Date.now() < deadline;)
    heldLater = tab.heldLater(await tab.run('1'));
  return { reached, heldLater };
}

// Attaching a tab the host attaches at its start (routes to set again, a script to follow again): an attach refused for
// a while (another debugger holds the tab, the tab is busy, the debugger still lets go of it) is tried again at the tab's
// next change, a few times; each failure is said in the log, and only a closed tab or a refused site ends it at once.
import { ToolError } from '../protocol/errors.js';
import type { TabHost } from './tab-host.js';

/** The attaches made in all, the first one included. */
export const RESTORE_TRIES = 6;
/** How long the first retry waits for a change of the tab at most; each next one waits twice as long. */
const FIRST_WAIT_MS = 250;

/** Errors no retry mends: the tab is gone, or its site is one the policy refuses (the attach judged it first). */
const FINAL_CODES = new Set(['TAB_NOT_FOUND', 'POLICY_DENIED', 'DOMAIN_CONFIRMATION_REQUIRED']);

/** Resolves true once `attach` succeeds, false once it failed for good or RESTORE_TRIES times; never rejects. */
export async function attachForRestore(
  hostId: string,
  attach: () => Promise<unknown>,
  host: Pick<TabHost, 'nextChange'>,
  warn: (message: string) => void,
): Promise<boolean> {
  for (let tried = 1; ; tried++) {
    try {
      await attach();
      return true;
    } catch (error) {
      const final = error instanceof ToolError && FINAL_CODES.has(error.code);
      const last = final || tried >= RESTORE_TRIES;
      warn(
        `could not attach tab ${hostId} again at start (try ${tried} of ${RESTORE_TRIES}): ${describe(error)}; ` +
          (last ? 'giving up.' : 'trying again at its next change.'),
      );
      if (last) return false;
      await nextChange(host, hostId, FIRST_WAIT_MS * 2 ** (tried - 1));
    }
  }
}

/** The tab's next change the host hears of (an update, its debugger let go), or `ms` when there is none sooner. */
function nextChange(host: Pick<TabHost, 'nextChange'>, hostId: string, ms: number): Promise<void> {
  if (host.nextChange) return host.nextChange(hostId, ms);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function describe(error: unknown): string {
  if (error instanceof ToolError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

// Chrome's "Preload pages" setting, turned off before the first script of the agent's runs in the person's Chrome.
//
// A speculation rule's prefetch or prerender is sent by the browser itself, which neither the debugger's Fetch and
// Network rules nor a declarativeNetRequest block stop (measured on Chromium 150): a script of the agent's could send
// page data with one, or add a link the page's own document rule prefetches. So preloading goes off before any script
// of the agent's runs, and stays off (Chrome gives the setting back when the extension is disabled or removed); a person
// who never lets an agent run a script keeps it. Where it cannot go off, no script of the agent's runs.
import { ToolError } from '../../shared/protocol/errors.js';

export class PreloadingSwitch {
  private turned: Promise<void> | undefined;

  /**
   * Settles once the setting is off, or rejects with PRELOADING_ON (the script must not run). Asked once while it is
   * ours to hold; while a policy or another extension holds it, asked again before each script (either may let go of
   * it, or turn it on), as after a refusal.
   */
  off(): Promise<void> {
    this.turned ??= turnOff().then(
      (ours) => {
        if (!ours) this.turned = undefined;
      },
      (error: unknown) => {
        this.turned = undefined;
        throw refused(error instanceof Error ? error.message : String(error));
      },
    );
    return this.turned;
  }
}

/** Turns it off where it can, and tells whether it is this extension's to keep off; rejects where it stays on. */
async function turnOff(): Promise<boolean> {
  const setting = chrome.privacy.network.networkPredictionEnabled;
  const before = await setting.get({});
  // A policy refuses the set; off by policy, there is nothing to do.
  if (before.levelOfControl !== 'not_controllable') await setting.set({ value: false });
  // Read back: where an extension installed after this one holds it, set resolves and changes nothing (measured on
  // Chromium 150). Off by that extension's doing (a content blocker's "disable prefetching") is off all the same.
  const after = await setting.get({});
  if (after.value !== false) throw new Error(`${after.levelOfControl}`);
  return after.levelOfControl === 'controlled_by_this_extension';
}

function refused(why: string): ToolError {
  return new ToolError(
    'PRELOADING_ON',
    `Chrome's "Preload pages" setting is on and could not be turned off (${why}); the script did not run.`,
  );
}

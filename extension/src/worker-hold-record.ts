// What the worker hold (scripted-workers.ts) keeps across a restart of the extension's worker, and for how long after
// its tab closes; free of chrome.* so the tests read the same names.
import { z } from 'zod';

/** The chrome.storage.session key: session storage outlives a stopped worker and clears with the browser, as tab ids do. */
export const WORKER_HOLD_KEY = 'scriptedWorkers';

/** The alarm that ends a closed tab's grace, and wakes a stopped worker to do it. */
export const WORKER_HOLD_ALARM = 'worker-hold';

/*
 * How long the hold outlives its tab: a service worker the script's message woke may still run. Chrome lets one event
 * run at most 5 min (ServiceWorkerVersion::kRequestTimeout), counted from the last event a client sent it (a message
 * the worker posts itself does not extend it), checks that every 30 s (kTimeoutTimerDelay) and stops the worker; an
 * idle one stops after 30 s. A message posted at the latest as the tab closed is over by 5.5 min: 6 min has a margin.
 * Longer would only keep the site's workers from other origins for nothing, in every tab of the site.
 */
export const CLOSED_GRACE_MS = 6 * 60_000;

/** Per tab an agent's script ran in, the origins it ran in, and once the tab closed, when (ms since the epoch). */
export const heldRecord = z.array(
  z.tuple([z.number().int(), z.object({ origins: z.array(z.string()), closedAt: z.number().optional() })]),
);

export type Held = z.infer<typeof heldRecord>[number][1];

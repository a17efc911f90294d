// When the worker dials again: quick retries after a drop, traffic that keeps a linked worker alive, and an alarm
// that outlives the worker, since an alarm is the only thing that wakes a stopped worker on its own.
export const LINK_ALARM = 'link';

/** How long a server may take to prove itself and welcome us before the dial counts as failed. */
export const HANDSHAKE_TIMEOUT_MS = 10_000;

/** Chrome 116+ keeps a worker alive while its WebSocket has traffic; it is stopped after 30 s without any. */
export const KEEPALIVE_MS = 20_000;

// Retries after a drop: quick at first (the app restarting, a worker restart), at most 5 s apart, for about a
// minute; after that the slow alarm carries on, so a machine without the app running is not kept busy.
const RETRY_DELAYS_MS = [250, 500, 1_000, 2_000, 4_000];
const MAX_RETRY_DELAY_MS = 5_000;
const FAST_RETRIES = 16;

/** Delay before retry number `attempt` (0-based), or undefined once the alarm should take over. */
export function retryDelay(attempt: number): number | undefined {
  if (attempt >= FAST_RETRIES) return undefined;
  return RETRY_DELAYS_MS[attempt] ?? MAX_RETRY_DELAY_MS;
}

// Linked, a worker stopped by Chrome should be back within seconds: the alarm fires every 3 s and re-dials if the
// link is down. Chrome enforces 30 s minimum periods only for packed extensions; this one loads unpacked, and a
// packed build degrades to 30 s. Unlinked, 30 s is the cold-restart driver.
const LINKED_PERIOD_MIN = 3 / 60;
const IDLE_PERIOD_MIN = 0.5;

export async function armAlarm(linked: boolean): Promise<void> {
  const periodInMinutes = linked ? LINKED_PERIOD_MIN : IDLE_PERIOD_MIN;
  const current = await chrome.alarms.get(LINK_ALARM);
  // Re-creating an alarm restarts its clock: leave one that already runs at the wanted pace.
  if (current?.periodInMinutes === periodInMinutes) return;
  await chrome.alarms.create(LINK_ALARM, { periodInMinutes, delayInMinutes: periodInMinutes });
}

/** At every worker start: the cold-restart alarm exists (Chrome keeps alarms across restarts, not across reinstalls). */
export async function ensureAlarm(): Promise<void> {
  if (!(await chrome.alarms.get(LINK_ALARM)))
    await chrome.alarms.create(LINK_ALARM, { periodInMinutes: IDLE_PERIOD_MIN });
}

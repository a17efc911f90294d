// How a worker lent to a tab's gate (lent-workers.ts) is judged: neither kind can be paused where it matters (Fetch on a
// shared worker's own target pauses nothing once it runs; a service worker's write meets declarativeNetRequest before
// its target's Fetch, both measured on Chromium 156), so its writes are stopped by the act's rules, or, should Chrome
// refuse those, by closing the worker outright; Network on its target tells each write with its body. That write is told
// to the gate as a pause of a request already stopped, judged as any other: held, it was never sent; released, the gate
// sends it again from the act's frame. A write the gate finds harmless is lost, with no pause left to let go on.

type Commands = readonly (readonly [string, Record<string, unknown>])[];

/** How a lent worker is set up on its target (`on`), and undone before its detach (`off`). */
export interface WorkerSetup {
  on: Commands;
  off: Commands;
}

/** With the act's rules standing: the worker tells its writes. */
export const OBSERVING: WorkerSetup = { on: [['Network.enable', {}]], off: [['Network.disable', {}]] };
/** Without them: the worker is closed, its reads as well as its writes. */
export const CLOSING: WorkerSetup = {
  on: [...OBSERVING.on, ['Network.setBlockedURLs', { urls: ['*'] }]],
  off: [['Network.setBlockedURLs', { urls: [] }], ...OBSERVING.off],
};

// The request ids of the pauses made up here, apart from any Chrome gives.
const STOPPED_PREFIX = 'stopped:';
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A Fetch.requestPaused for the gate made of a lent worker's Network.requestWillBeSent of a write; else undefined. */
export function stoppedPause(method: string, params: Record<string, unknown>): Record<string, unknown> | undefined {
  if (method !== 'Network.requestWillBeSent') return undefined;
  const request = params['request'] as { method: string } | undefined;
  if (!request || READS.has(request.method)) return undefined;
  return {
    requestId: `${STOPPED_PREFIX}${String(params['requestId'])}`,
    request,
    resourceType: params['type'] ?? 'Other',
    networkId: params['requestId'],
  };
}

/** An answer to a pause `stoppedPause` made: a no-op, as the request is stopped already. */
export function isStoppedPause(method: string, params: Record<string, unknown>): boolean {
  return method.startsWith('Fetch.') && String(params['requestId']).startsWith(STOPPED_PREFIX);
}

// A shared worker lent to a tab's gate (lent-workers.ts), closed rather than paused: Fetch on its own target pauses
// nothing once it runs (measured, Chromium 156), but Network there blocks its every request and tells each with its
// body. A write it makes is told to the gate as a pause of that blocked request, which the gate judges as any other:
// held, it was never sent; released, the gate sends it again from the act's frame. What the worker reads while lent,
// and a write the gate finds harmless, are lost: blocked, with no pause left to let go on.

/** What closes the worker while lent, and what opens it again (a detach follows). */
export const BLOCK_ALL: readonly (readonly [string, Record<string, unknown>])[] = [
  ['Network.enable', {}],
  ['Network.setBlockedURLs', { urls: ['*'] }],
];
export const UNBLOCK_ALL: readonly (readonly [string, Record<string, unknown>])[] = [
  ['Network.setBlockedURLs', { urls: [] }],
  ['Network.disable', {}],
];

// The request ids of the pauses made up here, apart from any Chrome gives.
const BLOCKED_PREFIX = 'blocked:';
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A Fetch.requestPaused for the gate made of a shared worker's Network.requestWillBeSent of a write; else undefined. */
export function blockedPause(method: string, params: Record<string, unknown>): Record<string, unknown> | undefined {
  if (method !== 'Network.requestWillBeSent') return undefined;
  const request = params['request'] as { method: string } | undefined;
  if (!request || READS.has(request.method)) return undefined;
  return {
    requestId: `${BLOCKED_PREFIX}${String(params['requestId'])}`,
    request,
    resourceType: params['type'] ?? 'Other',
    networkId: params['requestId'],
  };
}

/** An answer to a pause `blockedPause` made: a no-op, as the request is blocked already. */
export function isBlockedPause(method: string, params: Record<string, unknown>): boolean {
  return method.startsWith('Fetch.') && String(params['requestId']).startsWith(BLOCKED_PREFIX);
}

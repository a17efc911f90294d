// A shared worker made from a blob: or data: URL runs code some script wrote (maybe an agent's) in no tab's sessions:
// it reaches its own origin only, for its whole life, as the script trail holds a tab's blob workers.
import { AllowedOrigins } from '../../../shared/engine/egress-origins.js';
import type { CdpConnection } from './cdp-connection.js';

/** Code a script wrote: a blob: or data: URL (a worker whose code is a file of the site is the site's own). */
export function isScriptWorker(url: string): boolean {
  return /^(blob|data):/.test(url);
}

/**
 * Puts the rules on the worker before its first line runs, then lets it run; the session stays attached, as the rules
 * live in it. Which script constructed it cannot be told (measured: its script request names the page, with no stack),
 * so every such worker in our browser is held. A worker the browser would not hold stays paused: run, it would send.
 */
export function holdScriptWorker(connection: CdpConnection, sessionId: string, url: string): void {
  // A data: worker's origin is opaque: it reaches no origin at all.
  const allowed = new AllowedOrigins([originOf(url)]);
  void Promise.all([
    connection.send(
      'Network.enable',
      { maxTotalBufferSize: 0, maxResourceBufferSize: 0, maxPostDataSize: 0 },
      sessionId,
    ),
    connection.send('Network.setBlockedURLs', { urlPatterns: allowed.blockPatterns() }, sessionId),
    connection.send('Network.emulateNetworkConditionsByRule', { matchedNetworkConditions: allowed.rules() }, sessionId),
  ]).then(
    () => connection.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => undefined),
    () => undefined,
  );
}

function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

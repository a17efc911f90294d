// The first Fetch pause of a request, for tests that act in the moment a request waits paused.
import type { Cdp, CdpEvent } from '../../shared/engine/cdp.js';

/** Resolves with the first Fetch.requestPaused on `cdp` whose URL holds `path`. */
export function pausedAt(cdp: Cdp, path: string): Promise<CdpEvent> {
  return new Promise((resolve) => {
    const off = cdp.on((event) => {
      if (event.method !== 'Fetch.requestPaused') return;
      if (!String((event.params['request'] as { url: string }).url).includes(path)) return;
      off();
      resolve(event);
    });
  });
}

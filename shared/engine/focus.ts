// Focus emulation: a background tab drops CDP mouse and key input, and renders no frames, unless the page believes it
// has focus (seed 003).
import type { PageContext } from './page-context.js';

const enabled = new WeakMap<PageContext, Promise<void>>();

/**
 * Turns on `Emulation.setFocusEmulationEnabled` once per attached tab, before its first input or scroll. The tab is never
 * activated: the person's foreground tab stays where it is. A new attach (after a detach) turns it on again.
 */
export function ensureInputFocus(page: PageContext): Promise<void> {
  let ready = enabled.get(page);
  if (!ready) {
    const off = page.cdp.on((event) => {
      if (event.method !== 'Inspector.detached') return;
      enabled.delete(page);
      off();
    });
    ready = page.cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true }).then(
      () => undefined,
      (error: unknown) => {
        enabled.delete(page);
        off();
        throw error;
      },
    );
    enabled.set(page, ready);
  }
  return ready;
}

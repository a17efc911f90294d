// What the agents set up on a tab that only the host holds (routes, a performance trace): saved with the tab state,
// so a host restarted since (the extension's worker, which Chrome stops at will) tells the next call on that tab it is
// gone rather than let the agent believe its routes still apply.
import type { PageContext } from './page-context.js';
import type { SavedSetup } from './session-state.js';

export class TabSetups {
  /** What an earlier run of the host had set up, by tab, until a call on that tab hears of it. */
  private readonly lost: Map<string, SavedSetup>;

  constructor(initial: Array<[string, SavedSetup]> | undefined) {
    this.lost = new Map(initial);
  }

  /** The note for the top of a call on `hostId` naming what a restart lost there; given once, undefined when none. */
  take(hostId: string): string | undefined {
    const setup = this.lost.get(hostId);
    if (!setup) return undefined;
    this.lost.delete(hostId);
    return lostNote(setup);
  }

  /** A tab gone: nobody is left to tell. */
  forget(hostId: string): void {
    this.lost.delete(hostId);
  }

  /** What to save: the losses not yet told, and what each attached page has set up now. */
  saved(pages: ReadonlyMap<string, PageContext>): Array<[string, SavedSetup]> {
    const all = new Map(this.lost);
    for (const [hostId, page] of pages) {
      const routes = page.routes.list().map((route) => `${route.id} ${route.method ?? '*'} ${route.url}`);
      const tracing = page.trace.owner !== undefined;
      if (routes.length === 0 && !tracing) continue;
      const before = all.get(hostId);
      all.set(hostId, { routes: [...(before?.routes ?? []), ...routes], tracing: tracing || before?.tracing === true });
    }
    return [...all];
  }
}

function lostNote({ routes, tracing }: SavedSetup): string {
  const lost = [
    ...(routes.length > 0 ? [`its routes (${routes.join(', ')})`] : []),
    ...(tracing ? ['its performance trace'] : []),
  ];
  const again = [
    ...(routes.length > 0 ? ['add the routes again with `network_route`'] : []),
    ...(tracing ? ['start the trace again with `performance`'] : []),
  ];
  const gone = `Note: the extension restarted, and this tab lost ${lost.join(' and ')}: none of it applies now.`;
  return `${gone} To go on, ${again.join('; ')}.`;
}

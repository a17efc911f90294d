// What the agents set up on a tab that only the host holds (routes, a performance trace): saved with the tab state, so
// a host restarted since (the extension's worker, which Chrome stops at will) sets the routes again as it attaches the
// tab anew, and tells the next call on that tab what it did and what it could not keep (a trace, routes over the bound).
import { refusedRoute, type Route } from './network-routes.js';
import type { PageContext } from './page-context.js';
import type { SavedSetup } from './session-state.js';

/**
 * How much of the routes is kept whole, over all tabs, in characters of JSON: one mock body may take 1,000,000 (the
 * tool's bound), and chrome.storage.session holds 10 MB for the whole extension, the tab state written whole on each
 * change. The newest routes are kept first; the rest keep only their names, and a restart names them as lost.
 */
export const KEPT_ROUTE_CHARS = 1_048_576;

export class TabSetups {
  /** What an earlier run of the host lost on each tab, until a call on that tab hears of it. */
  private readonly lost = new Map<string, { routes: string[]; tracing: boolean }>();
  /** The routes an earlier run had on each tab, newest first, until this run attaches the tab and sets them again. */
  private readonly pending = new Map<string, Route[]>();
  /** The routes set again on each tab, until a call on that tab hears of it. */
  private readonly restored = new Map<string, string[]>();

  constructor(initial: Array<[string, SavedSetup]> | undefined) {
    for (const [hostId, { routes, tracing, kept }] of initial ?? []) {
      if (routes.length > 0 || tracing) this.lost.set(hostId, { routes, tracing });
      if (kept && kept.length > 0) this.pending.set(hostId, kept);
    }
  }

  /** The tabs with routes to set again: the host attaches them at its start, so the routes answer before any call. */
  pendingTabs(): string[] {
    return [...this.pending.keys()];
  }

  /**
   * Sets the tab's earlier routes again on its new context, as the add would have judged them now: one whose glob names
   * a site the policy has since refused is lost instead. Call before the context serves a call.
   */
  async restore(hostId: string, page: PageContext): Promise<void> {
    const kept = this.pending.get(hostId);
    if (!kept) return;
    const refused = kept.filter((route) => refusedRoute(page.gate, route.url, route.action) !== undefined);
    const allowed = kept.filter((route) => !refused.includes(route));
    await page.routes.restore(allowed);
    this.pending.delete(hostId);
    if (allowed.length > 0)
      this.restored.set(
        hostId,
        allowed.map((route) => route.id),
      );
    this.lose(hostId, refused.map(nameOf));
  }

  /** The tab could not be attached (closed, or showing a site the policy refuses): its earlier routes are lost. */
  notRestored(hostId: string): void {
    const kept = this.pending.get(hostId);
    this.pending.delete(hostId);
    if (kept) this.lose(hostId, kept.map(nameOf));
  }

  /** The note for the top of a call on `hostId` naming what a restart did there; given once, undefined when none. */
  take(hostId: string): string | undefined {
    const restored = this.restored.get(hostId);
    const lost = this.lost.get(hostId);
    this.restored.delete(hostId);
    this.lost.delete(hostId);
    const notes = [
      ...(restored ? [restoredNote(restored)] : []),
      ...(lost && (lost.routes.length > 0 || lost.tracing) ? [lostNote(lost)] : []),
    ];
    return notes.length > 0 ? notes.join('\n') : undefined;
  }

  /** A tab gone: nobody is left to tell, nothing to set again. */
  forget(hostId: string): void {
    this.lost.delete(hostId);
    this.pending.delete(hostId);
    this.restored.delete(hostId);
  }

  /** What to save: the losses not yet told, the routes still to set again, and what each attached page has now. */
  saved(pages: ReadonlyMap<string, PageContext>): Array<[string, SavedSetup]> {
    const all = new Map<string, { routes: Route[]; tracing: boolean }>();
    for (const [hostId, routes] of this.pending) all.set(hostId, { routes, tracing: false });
    for (const [hostId, page] of pages) {
      const routes = page.routes.list();
      const tracing = page.trace.owner !== undefined;
      // Set again on the page by now (restore): the page's own list has them.
      if (routes.length > 0 || tracing) all.set(hostId, { routes, tracing });
    }
    let room = KEPT_ROUTE_CHARS;
    const saved = new Map<string, SavedSetup>();
    for (const [hostId, { routes, tracing }] of all) {
      const kept: Route[] = [];
      const named: string[] = [];
      for (const route of routes) {
        const size = JSON.stringify(route).length;
        if (size <= room) {
          room -= size;
          kept.push(route);
        } else named.push(nameOf(route));
      }
      saved.set(hostId, { routes: named, tracing, ...(kept.length > 0 ? { kept } : {}) });
    }
    for (const [hostId, lost] of this.lost) {
      const setup = saved.get(hostId);
      saved.set(hostId, {
        ...setup,
        routes: [...(setup?.routes ?? []), ...lost.routes],
        tracing: setup?.tracing === true || lost.tracing,
      });
    }
    return [...saved];
  }

  private lose(hostId: string, routes: string[]): void {
    if (routes.length === 0) return;
    const before = this.lost.get(hostId);
    this.lost.set(hostId, { routes: [...(before?.routes ?? []), ...routes], tracing: before?.tracing === true });
  }
}

/** The setups as saved without the routes kept whole, which keep their names only: what fits when the whole did not. */
export function namesOnly(setups: Array<[string, SavedSetup]>): Array<[string, SavedSetup]> {
  return setups.map(([hostId, { routes, tracing, kept }]) => [
    hostId,
    { routes: [...(kept ?? []).map(nameOf), ...routes], tracing },
  ]);
}

/** A route as `network_route list` names it, less its action: `r1 * *api/messages*`. */
function nameOf(route: Route): string {
  return `${route.id} ${route.method ?? '*'} ${route.url}`;
}

function restoredNote(ids: string[]): string {
  return (
    `Note: the extension restarted and set this tab's routes again (${ids.join(', ')}); ` +
    'requests made while it was down went out unrouted.'
  );
}

function lostNote({ routes, tracing }: { routes: string[]; tracing: boolean }): string {
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

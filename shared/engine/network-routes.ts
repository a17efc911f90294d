// The agent's routes on one tab: requests of any frame whose URL matches a route's glob are blocked, answered with a
// mock, or sent on with changed headers, through the NavigationGuard's one Fetch domain. A route is the last word on a
// request: the send gate, the egress hold and the script trail judge it first (navigation-guard.ts `routeWith`), a
// document is never routed, and a route acts only where the policy lets the agent act.
import type { Denied } from '../policy/decision.js';
import type { Cdp, CdpEvent } from './cdp.js';
import type { FrameRegistry } from './frames.js';
import type { NetworkLog, Routed } from './network-log.js';
import type { PolicyGate } from './policy-gate.js';

export type RouteAction =
  | { block: true }
  | { mock: { status: number; headers: Record<string, string>; body: string } }
  | { modify: { headers: Record<string, string | null> } };

export interface Route {
  id: string;
  url: string;
  /** Upper case; absent: every method. */
  method?: string;
  action: RouteAction;
  hits: number;
}

interface Paused {
  requestId: string;
  networkId?: string;
  frameId?: string;
  resourceType: string;
  request: { url: string; method: string; headers: Record<string, string> };
  responseStatusCode?: number;
  responseErrorReason?: string;
}

// A route never answers for a document (the guard's, and what the person sees as the page) nor for a CORS preflight,
// whose answer only the browser's own checks read: mocking one would fail the request it stands for.
const NOT_ROUTED = new Set(['Document', 'Preflight']);

export class NetworkRoutes {
  /** Newest first: a later route for the same URL wins, as in Playwright. */
  private routes: { route: Route; matches: RegExp; unstand: () => void }[] = [];
  private next = 0;

  constructor(
    private readonly cdp: Cdp,
    private readonly frames: FrameRegistry,
    private readonly gate: PolicyGate,
    private readonly network: NetworkLog,
  ) {
    frames.navigation.routeWith((event) => this.onPaused(event));
  }

  /** Adds a route and resolves once every session of the tab pauses what it matches. */
  async add(url: string, method: string | undefined, action: RouteAction): Promise<Route> {
    const route: Route = {
      id: `r${++this.next}`,
      url,
      ...(method ? { method: method.toUpperCase() } : {}),
      action,
      hits: 0,
    };
    this.routes = [this.entry(route), ...this.routes];
    await this.frames.navigation.restand();
    return route;
  }

  /**
   * Sets again, under their own ids, routes an earlier run of the host had on the tab (`kept`, newest first, as `list`
   * gave them), behind any added since; later ids count on from theirs.
   */
  async restore(kept: readonly Route[]): Promise<void> {
    this.routes = [...this.routes, ...kept.map((route) => this.entry({ ...route }))];
    for (const { id } of kept) this.next = Math.max(this.next, Number(/^r(\d+)$/.exec(id)?.[1] ?? 0));
    await this.frames.navigation.restand();
  }

  list(): Route[] {
    return this.routes.map((entry) => entry.route);
  }

  /** Removes one route (or every route, with no id); answers how many went. Real traffic resumes at once. */
  async remove(id?: string): Promise<number> {
    const gone = this.routes.filter((entry) => id === undefined || entry.route.id === id);
    if (gone.length === 0) return 0;
    this.routes = this.routes.filter((entry) => !gone.includes(entry));
    for (const entry of gone) entry.unstand();
    await this.frames.navigation.restand();
    return gone.length;
  }

  private entry(route: Route): { route: Route; matches: RegExp; unstand: () => void } {
    // Chrome's urlPattern has the same glob: only what a route may match is paused, the rest of the page goes free.
    const unstand = this.frames.navigation.stand([{ urlPattern: route.url, requestStage: 'Request' }]);
    return { route, matches: globRegExp(route.url), unstand };
  }

  private onPaused(event: CdpEvent): boolean {
    const paused = event.params as unknown as Paused;
    if (paused.responseStatusCode !== undefined || paused.responseErrorReason !== undefined) return false;
    if (NOT_ROUTED.has(paused.resourceType)) return false;
    const { url, method } = paused.request;
    const entry = this.routes.find(
      ({ route, matches }) => (route.method === undefined || route.method === method) && matches.test(url),
    );
    if (!entry) return false;
    void this.answer(entry.route, paused, event.sessionId);
    return true;
  }

  private async answer(route: Route, paused: Paused, sessionId: string | undefined): Promise<void> {
    const send = (command: string, params: Record<string, unknown> = {}) =>
      this.cdp.send(command, { requestId: paused.requestId, ...params }, sessionId).catch(() => undefined);
    const may = await this.mayRoute(route, paused, sessionId).catch(() => false);
    // Where the browser's 'update on reload' switch cannot be turned off again (the extension), a worker's request
    // goes on as it was: answering it would leave every service worker site of the browser force-updating.
    if (may && !('modify' in route.action) && this.frames.serviceWorkerUrl(sessionId) !== undefined) {
      if (!(await this.frames.mayAnswerWorkers())) return void (await send('Fetch.continueRequest'));
    }
    // Removed while its frame was looked up, or outside what the policy lets the agent act on: as the page made it.
    if (!may || !this.routes.some((entry) => entry.route === route)) return void (await send('Fetch.continueRequest'));
    route.hits++;
    const mark = (how: Routed['how']) =>
      this.network.markRouted(sessionId, paused.networkId ?? paused.requestId, { how, route: route.id });
    const { action } = route;
    if ('block' in action) {
      mark('blocked');
      return void (await send('Fetch.failRequest', { errorReason: 'BlockedByClient' }));
    }
    if ('mock' in action) {
      mark('mocked');
      return void (await send('Fetch.fulfillRequest', {
        responseCode: action.mock.status,
        responseHeaders: Object.entries(action.mock.headers).map(([name, value]) => ({ name, value })),
        body: base64(action.mock.body),
      }));
    }
    mark('modified');
    await send('Fetch.continueRequest', { headers: modified(paused.request.headers, action.modify.headers) });
  }

  /**
   * The frame that made the request (or the service worker, on its own session) must let the agent act (its traffic is
   * the agent's to change); a mock or a change also needs the request's own site to (a route never answers in the
   * name of, nor sends to, a site it may not act on). A block sends and serves nothing, so it holds wherever the frame
   * allows it.
   */
  private async mayRoute(route: Route, paused: Paused, sessionId: string | undefined): Promise<boolean> {
    if (!('block' in route.action) && !this.gate.allows({ url: paused.request.url }, 'act')) return false;
    const worker = this.frames.serviceWorkerUrl(sessionId);
    if (worker !== undefined) return this.gate.allows({ url: worker }, 'act');
    const frame = (await this.frames.list()).find((each) => each.frameId === paused.frameId);
    return frame !== undefined && this.frames.allows(frame, 'act');
  }
}

/** Chrome's Fetch urlPattern glob over the whole URL: `*` any run, `?` one character, `\` escapes the next. */
export function globRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '\\' && i + 1 < glob.length) source += escape(glob[++i]!);
    else if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += escape(char);
  }
  return new RegExp(`^${source}$`, 's');
}

/**
 * Why the policy refuses a route at once: a mock or a change whose glob names a site outright
 * (`https://api.example.com/*`) the agent may not act on. Any other match is judged request by request as it comes.
 */
export function refusedRoute(gate: PolicyGate, url: string, action: RouteAction): Denied | undefined {
  const site = 'block' in action ? undefined : namedSite(url);
  const decision = site === undefined ? undefined : gate.decide({ url: site }, 'act');
  return decision && !decision.allowed ? decision : undefined;
}

/** The site a glob names outright (`https://api.example.com/*`); none for `*api*`. */
function namedSite(glob: string): string | undefined {
  const named = /^([a-z][a-z0-9+.-]*:\/\/[^/*?\\]+)(?:\/|$)/i.exec(glob);
  return named ? `${named[1]}/` : undefined;
}

function escape(char: string): string {
  return char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The request's headers with `changes` applied: a value sets (whatever the case of the name), null removes. */
function modified(
  headers: Record<string, string>,
  changes: Record<string, string | null>,
): { name: string; value: string }[] {
  const lower = new Set(Object.keys(changes).map((name) => name.toLowerCase()));
  const kept = Object.entries(headers).filter(([name]) => !lower.has(name.toLowerCase()));
  const set = Object.entries(changes).filter((change): change is [string, string] => change[1] !== null);
  return [...kept, ...set].map(([name, value]) => ({ name, value }));
}

function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

// network_route: add, list and remove the agent's routes on the tab's requests (network-routes.ts does the routing).
import { ToolError } from '../../protocol/errors.js';
import { policyError } from '../../protocol/policy-error.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { NetworkRouteArgs } from '../../tools/args.js';
import { refusedRoute, type Route, type RouteAction } from '../network-routes.js';
import type { PageContext } from '../page-context.js';

/** A mock body shown in a listing: the rest is the agent's own, which it already has. */
const BODY_CHARS = 60;

/** Through the extension a route does not answer a service worker's requests (network-routes.ts says why). */
export const WORKER_NOTE =
  "note: a service worker serves this tab; here a block or mock applies only to the page's own requests, the worker's go on unchanged.";

export async function networkRoute(
  page: PageContext,
  args: NetworkRouteArgs,
  _ctx: OperationContext,
): Promise<OperationResult> {
  const { routes } = page;
  if (args.action === 'list') return listed(routes.list(), `network_route: ${count(routes.list().length)}`);
  if (args.action === 'remove') {
    const removed = await routes.remove(args.id);
    if (args.id !== undefined && removed === 0) {
      throw new ToolError('NOT_FOUND', `network_route: no route ${args.id} on this tab.`, {
        next: "Call network_route {action: 'list'} for the routes it has.",
      });
    }
    return listed(routes.list(), `network_route: removed ${count(removed)}; ${count(routes.list().length)} left`);
  }
  const url = args.url;
  if (url === undefined) throw badArgs('add needs url, a glob over the whole URL (e.g. *api/items*).');
  const action = actionOf(args);
  const decision = refusedRoute(page.gate, url, action);
  if (decision) {
    const error = policyError(decision);
    throw error.reworded(`network_route: a route may not answer for or send to ${decision.site}: ${error.message}`);
  }
  const route = await routes.add(url, args.method, action);
  const added = `network_route: added ${describe(route)}; it applies to requests from now on`;
  const workerNote =
    !('modify' in action) && page.frames.hasServiceWorker() && !(await page.frames.mayAnswerWorkers())
      ? `\n${WORKER_NOTE}`
      : '';
  return listed(routes.list(), added + workerNote);
}

function actionOf(args: NetworkRouteArgs): RouteAction {
  const given = [args.block, args.mock, args.modify].filter((each) => each !== undefined).length;
  if (given !== 1)
    throw badArgs('add takes exactly one of block: true, mock {status?, headers?, body?}, modify {headers}.');
  if (args.block) return { block: true };
  if (args.modify) return { modify: { headers: args.modify.headers } };
  const mock = args.mock!;
  const status = mock.status ?? 200;
  // A redirect would send the page's request on to wherever the mock says, past every judgement a route makes.
  if (status >= 300 && status < 400) throw badArgs('a mock cannot redirect (status 3xx); answer 2xx, 4xx or 5xx.');
  if (Object.keys(mock.headers ?? {}).some((name) => name.toLowerCase() === 'location'))
    throw badArgs('a mock cannot carry a Location header: it could redirect the request.');
  const body = mock.body ?? '';
  const headers = { ...mock.headers };
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
    headers['content-type'] = looksLikeJson(body) ? 'application/json' : 'text/plain; charset=utf-8';
  return { mock: { status, headers, body } };
}

function listed(all: readonly Route[], head: string): OperationResult {
  return {
    text: [head, ...all.map((route) => `${describe(route)} (${route.hits} hit${route.hits === 1 ? '' : 's'})`)].join(
      '\n',
    ),
    data: {
      routes: all.map((route) => ({ id: route.id, url: route.url, how: howOf(route.action), hits: route.hits })),
    },
  };
}

function describe(route: Route): string {
  const { action } = route;
  const what =
    'block' in action
      ? 'block'
      : 'mock' in action
        ? `mock ${action.mock.status} ${quoted(action.mock.body)}`
        : `modify ${Object.entries(action.modify.headers)
            .map(([name, value]) => (value === null ? `-${name}` : `${name}=${value}`))
            .join(' ')}`;
  return `${route.id} ${route.method ?? '*'} ${route.url} → ${what}`;
}

function howOf(action: RouteAction): 'block' | 'mock' | 'modify' {
  return 'block' in action ? 'block' : 'mock' in action ? 'mock' : 'modify';
}

function quoted(body: string): string {
  const shown = body.length > BODY_CHARS ? `${body.slice(0, BODY_CHARS)}…` : body;
  return JSON.stringify(shown);
}

function count(n: number): string {
  return `${n} route${n === 1 ? '' : 's'}`;
}

function looksLikeJson(body: string): boolean {
  try {
    JSON.parse(body);
    return /^\s*[[{]/.test(body);
  } catch {
    return false;
  }
}

function badArgs(message: string): ToolError {
  return new ToolError('BAD_ARGS', `network_route: ${message}`, {
    next: 'Fix that argument and call network_route again.',
  });
}

// DevTools tools (opt-in: `--caps devtools`): what a developer reads to fix a page, kept by the engine as it happens.
import { z } from 'zod';
import { defineTool } from './define.js';
import { frameField, tabShape, targetShape } from './target-shape.js';

export const CONSOLE_LEVELS = ['debug', 'log', 'info', 'warn', 'error'] as const;

// What a read of a log kept as it happens takes: which frame, what came after the last entry read, how many.
const LOG_READ = {
  frame: frameField,
  since: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(500).optional(),
  ...tabShape,
};

/** What such a read answers: the newest id (for `since`), how many lines it shows and how many the policy hid. */
const LOG_PAGE = z.object({ last: z.number(), shown: z.number(), omitted: z.number() });

export const console_read = defineTool({
  name: 'console',
  title: 'Read console',
  category: 'devtools',
  cap: 'devtools',
  description:
    'Console lines, exceptions and browser log of every frame, oldest first: level = least severe shown (default log); since = a #seq already read.',
  input: z.strictObject({ level: z.enum(CONSOLE_LEVELS).optional(), ...LOG_READ }),
  output: LOG_PAGE,
  readOnly: true,
  destructive: false,
  policy: 'read',
  readsKept: true,
  op: 'console',
});

export const network = defineTool({
  name: 'network',
  title: 'List requests',
  category: 'devtools',
  cap: 'devtools',
  description:
    'Requests of every frame since this session first used the tab: #id method status type size ms url. Filter by url piece, method, status, type, frame; since = an #id already read.',
  input: z.strictObject({
    url: z.string().optional(),
    method: z.string().optional(),
    status: z.number().int().optional(),
    type: z.string().optional(),
    ...LOG_READ,
  }),
  output: LOG_PAGE,
  readOnly: true,
  destructive: false,
  policy: 'read',
  readsKept: true,
  op: 'network',
});

export const network_get = defineTool({
  name: 'network_get',
  title: 'Read a request',
  category: 'devtools',
  cap: 'devtools',
  description:
    'One request by #id: its headers (secrets redacted) and, with body: true, the bodies it sent and got (text, capped).',
  input: z.strictObject({
    id: z.number().int().min(1),
    body: z.boolean().optional(),
    maxChars: z.number().int().min(1).optional(),
    ...tabShape,
  }),
  readOnly: true,
  destructive: false,
  policy: 'read',
  op: 'network_get',
});

const ROUTE_SHAPE = z.object({
  id: z.string(),
  url: z.string(),
  how: z.enum(['block', 'mock', 'modify']),
  hits: z.number(),
});

export const network_route = defineTool({
  name: 'network_route',
  title: 'Route requests',
  category: 'devtools',
  cap: 'devtools',
  description:
    "Routes the tab's requests (any frame, worker or its site's service worker; not page loads, nor a shared worker's) whose URL matches a glob (* any): add {url, method?, one of block: true | mock {status?, headers?, body?} | modify {headers: name: value or null to drop}}; list; remove {id} (none: all). Acts only on sites the policy lets you act on; routes end with the tab.",
  input: z.strictObject({
    action: z.enum(['add', 'list', 'remove']),
    url: z.string().min(1).max(2_000).optional(),
    method: z.string().optional(),
    block: z.literal(true).optional(),
    mock: z
      .strictObject({
        status: z.number().int().min(200).max(599).optional(),
        headers: z.record(z.string(), z.string()).optional(),
        body: z.string().max(1_000_000).optional(),
      })
      .optional(),
    modify: z.strictObject({ headers: z.record(z.string(), z.string().nullable()) }).optional(),
    id: z.string().optional(),
    ...tabShape,
  }),
  output: z.object({ routes: z.array(ROUTE_SHAPE) }),
  readOnly: false,
  destructive: false,
  policy: 'read',
  // Changing what the tab sends and receives is acting on it; reading or removing the agent's own routes is not.
  mainLevel: (args) => (args.action === 'add' ? 'act' : 'read'),
  op: 'network_route',
});

// What a replay or an API call may change: query keys set (null drops one), and the body (a string as it is, any other
// JSON value as JSON). Credentials are never arguments: the frame's own sign the request.
const CALL_SHAPE = {
  query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  body: z.unknown().optional(),
  maxChars: z.number().int().min(1).optional(),
  ...tabShape,
};

/** What a request sent from inside a frame answers: its status, when one came. */
const CALL_ANSWER = z.object({ status: z.number().optional() });

export const network_replay = defineTool({
  name: 'network_replay',
  title: 'Replay a request',
  category: 'devtools',
  cap: 'devtools',
  description:
    'Send a captured request (#id from network) again from the frame that made it, its own cookies signing it; query and body override. Answers status and body (capped).',
  input: z.strictObject({ id: z.number().int().min(1), ...CALL_SHAPE }),
  output: CALL_ANSWER,
  readOnly: false,
  destructive: true,
  // An outward act at the frame's site, judged there (the top need only be readable); the gate holds a send.
  policy: 'act',
  mainLevel: () => 'read',
  commits: () => true,
  op: 'network_replay',
});

export const api_learn = defineTool({
  name: 'api_learn',
  title: 'Learn the API',
  category: 'devtools',
  cap: 'devtools',
  description:
    "The page's XHR/fetch endpoints from captured traffic: method, path template ({id}), query and body shape, auth kind, status, frame. Never values.",
  input: z.strictObject({ frame: frameField, ...tabShape }),
  readOnly: true,
  destructive: false,
  policy: 'read',
  op: 'api_learn',
});

export const api_call = defineTool({
  name: 'api_call',
  title: 'Call the API',
  category: 'devtools',
  cap: 'devtools',
  description:
    'Call an endpoint from inside its frame, its cookies and auth signing it: endpoint "POST /api/items/7", or method + path. Answers status and body (capped).',
  input: z.strictObject({
    endpoint: z.string().optional(),
    method: z.string().optional(),
    path: z.string().optional(),
    frame: frameField,
    ...CALL_SHAPE,
  }),
  output: CALL_ANSWER,
  readOnly: false,
  destructive: true,
  policy: 'act',
  mainLevel: () => 'read',
  commits: () => true,
  op: 'api_call',
});

export const performance = defineTool({
  name: 'performance',
  title: 'Trace performance',
  category: 'devtools',
  cap: 'devtools',
  description:
    'start: trace the tab (reload: true reloads it first, so load timings count); stop: the findings: load timings, LCP, CLS and what shifted, long tasks, largest and slowest requests.',
  input: z.strictObject({ action: z.enum(['start', 'stop']), reload: z.boolean().optional(), ...tabShape }),
  output: z.object({
    tracing: z.boolean(),
    ttfbMs: z.number().optional(),
    domContentLoadedMs: z.number().optional(),
    loadMs: z.number().optional(),
    lcpMs: z.number().optional(),
    cls: z.number().optional(),
    longTasks: z.number().optional(),
  }),
  // A reload is a navigation of the tab.
  readOnly: false,
  destructive: false,
  policy: 'read',
  op: 'performance',
  // The reload's wait (navigate's own default) and the trace's handover at stop.
  budgetMs: 60_000,
});

export const inspect = defineTool({
  name: 'inspect',
  title: 'Inspect element',
  category: 'devtools',
  cap: 'devtools',
  description:
    'One element (target as click takes it): attributes, box model, computed styles (a default set, or `styles`), the CSS rules matching it (file:line, overridden marked) and its event listeners (handler file:line).',
  input: z.strictObject({ ...targetShape, styles: z.array(z.string()).max(50).optional(), ...tabShape }),
  readOnly: true,
  destructive: false,
  policy: 'read',
  op: 'inspect',
});

export const sources = defineTool({
  name: 'sources',
  title: 'Page scripts',
  category: 'devtools',
  cap: 'devtools',
  description:
    'Scripts of every frame. list: #id frame size url, source-map files. search: query (regex: true) → #id file:line: text. read: id or url piece, from line, lines (default 200). url and frame narrow each.',
  input: z.strictObject({
    action: z.enum(['list', 'search', 'read']).optional(),
    query: z.string().min(1).optional(),
    regex: z.boolean().optional(),
    id: z.number().int().min(1).optional(),
    url: z.string().optional(),
    line: z.number().int().min(1).optional(),
    lines: z.number().int().min(1).max(2_000).optional(),
    limit: z.number().int().min(1).max(500).optional(),
    frame: frameField,
    ...tabShape,
  }),
  readOnly: true,
  destructive: false,
  policy: 'read',
  op: 'sources',
});

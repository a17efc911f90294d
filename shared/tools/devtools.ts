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
  op: 'network',
});

export const network_get = defineTool({
  name: 'network_get',
  title: 'Read a request',
  category: 'devtools',
  cap: 'devtools',
  description:
    'One request by #id: its headers (secrets redacted) and, with body: true, the response body (text, capped).',
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

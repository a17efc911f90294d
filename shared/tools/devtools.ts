// DevTools tools (opt-in: `--caps devtools`): what a developer reads to fix a page, kept by the engine as it happens.
import { z } from 'zod';
import { defineTool } from './define.js';
import { frameField, tabShape } from './target-shape.js';

export const CONSOLE_LEVELS = ['debug', 'log', 'info', 'warn', 'error'] as const;

export const console_read = defineTool({
  name: 'console',
  title: 'Read console',
  category: 'devtools',
  cap: 'devtools',
  description:
    'Console lines, exceptions and browser log of every frame, oldest first: level = least severe shown (default log); since = a #seq already read.',
  input: z.strictObject({
    level: z.enum(CONSOLE_LEVELS).optional(),
    frame: frameField,
    since: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(500).optional(),
    ...tabShape,
  }),
  output: z.object({ last: z.number(), shown: z.number(), omitted: z.number() }),
  readOnly: true,
  destructive: false,
  policy: 'read',
  op: 'console',
});

// Session tools: what is connected and which tab is in use.
import { z } from 'zod';
import { defineTool } from './define.js';

export const status = defineTool({
  name: 'status',
  title: 'Status',
  category: 'session',
  description: 'Backend in use, browser state, current tab.',
  input: z.strictObject({}),
  // The parts' own fields are electron/core/mcp/status.ts's report, passed through as they are.
  output: z.object({
    backend: z.enum(['extension', 'fallback', 'none']),
    extension: z.looseObject({ connected: z.boolean() }),
    browser: z.unknown(),
    tab: z.unknown(),
    lastCall: z.unknown(),
    oversight: z.unknown(),
  }),
  readOnly: true,
  destructive: false,
  policy: 'none',
  op: 'status',
  whileStopped: true,
});

// Session tools: what is connected and which tab is in use.
import { z } from 'zod';
import { defineTool } from './define.js';

export const status = defineTool({
  name: 'status',
  title: 'Status',
  category: 'session',
  description: 'Backend in use, browser state, current tab.',
  input: z.strictObject({}),
  readOnly: true,
  destructive: false,
  policy: 'none',
  op: 'status',
  whileStopped: true,
});

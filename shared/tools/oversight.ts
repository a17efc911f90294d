// Oversight tools: the agent shows the person its plan and asks them questions; the core answers both itself.
import { z } from 'zod';
import { defineTool } from './define.js';

export const plan = defineTool({
  name: 'plan',
  title: 'Post plan',
  category: 'session',
  description: 'Post your steps for the person. askFirst: wait for approval before acting.',
  input: z.strictObject({
    steps: z.array(z.string().min(1).max(300)).min(1).max(30),
    askFirst: z.boolean().optional(),
  }),
  readOnly: true,
  destructive: false,
  policy: 'none',
  op: 'plan',
});

export const ask = defineTool({
  name: 'ask',
  title: 'Ask the person',
  category: 'session',
  description: 'Ask the person; waits for the reply.',
  input: z.strictObject({
    question: z.string().min(1).max(2000),
    choices: z.array(z.string().min(1).max(200)).min(2).max(10).optional(),
  }),
  readOnly: true,
  destructive: false,
  policy: 'none',
  op: 'ask',
});

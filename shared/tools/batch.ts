// batch: many steps inside the executor with no round trip between them; stops at the first failure and names it.
import { z } from 'zod';
import { defineTool } from './define.js';

export const MAX_BATCH_STEPS = 50;

export const batch = defineTool({
  name: 'batch',
  title: 'Run steps',
  category: 'act',
  cap: 'extra',
  description: `Run up to ${MAX_BATCH_STEPS} tool calls in one round trip; stops at the first failure, naming the step.`,
  input: z.strictObject({
    steps: z
      .array(z.strictObject({ tool: z.string(), args: z.record(z.string(), z.unknown()).optional() }))
      .min(1)
      .max(MAX_BATCH_STEPS),
    tab: z.string().optional(),
  }),
  readOnly: false,
  destructive: false,
  policy: 'act',
  op: 'batch',
  runsSteps: true,
});

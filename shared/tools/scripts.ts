// Script tools: JavaScript in the page; a page exception is a result ({ok:false}), never a transport failure.
import { z } from 'zod';
import { defineTool } from './define.js';
import { frameField, tabShape } from './target-shape.js';

export const evaluate = defineTool({
  name: 'eval',
  title: 'Run JavaScript',
  category: 'scripts',
  description:
    'Run a JS expression in the page or a frame (trusted sites only); promises awaited; value as JSON; refused if a password field shows.',
  input: z.strictObject({
    expression: z.string(),
    frame: frameField,
    ...tabShape,
  }),
  // The value itself is in the text (as JSON), and so are the sends it held: this says whether it is a value.
  output: z.object({ ok: z.boolean(), type: z.string().optional() }),
  readOnly: false,
  destructive: false,
  // Not an act, so not watched for navigation: that costs a renderer round trip per call, and eval is the call whose
  // cost matters most (the agent's cheapest probe). A script that navigates says so in its value, or `tabs` shows it.
  policy: 'trusted',
  op: 'eval',
  // With no frame it runs in the top document, which must be trusted from the start (so an undecided site is asked
  // for what the call needs); in a frame it is judged where it runs (ops/eval.ts), and the top need only be readable.
  mainLevel: (args) => (args.frame === undefined ? 'trusted' : 'read'),
});

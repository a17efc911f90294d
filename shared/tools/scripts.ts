// Script tools: JavaScript in the page; a page exception is a result ({ok:false}), never a transport failure.
import { z } from 'zod';
import { defineTool } from './define.js';
import { frameField, tabShape } from './target-shape.js';

export const evaluate = defineTool({
  name: 'eval',
  category: 'scripts',
  description: 'Evaluate a JavaScript expression in the page (or a frame); promises are awaited; the value returns as JSON. Refused while any frame of the tab shows a password field.',
  input: z.strictObject({
    expression: z.string(),
    frame: frameField,
    ...tabShape,
  }),
  readOnly: false,
  destructive: false,
  policy: 'trusted',
  op: 'eval',
});

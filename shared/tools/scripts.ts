// Script tools: JavaScript in the page; a page exception is a result ({ok:false}), never a transport failure.
import { z } from 'zod';
import { defineTool } from './define.js';
import { frameField, tabShape } from './target-shape.js';

export const evaluate = defineTool({
  name: 'eval',
  category: 'scripts',
  description: 'Run a JS expression in the page or a frame (trusted sites only); promises awaited; value as JSON. Refused while a password field shows.',
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

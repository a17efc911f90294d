// The dialog tool: answers the alert, confirm, prompt or beforeunload guard open on a tab (engine/dialogs.ts).
import { z } from 'zod';
import { defineTool } from './define.js';
import { tabShape } from './target-shape.js';

export const dialog = defineTool({
  name: 'dialog',
  title: 'Answer dialog',
  category: 'act',
  description: 'Answer the open alert/confirm/prompt/leave-page dialog; text answers a prompt.',
  input: z.strictObject({
    accept: z.boolean(),
    text: z.string().max(10_000).optional(),
    ...tabShape,
  }),
  readOnly: false,
  destructive: false,
  policy: 'act',
  op: 'dialog',
  answersDialog: true,
});

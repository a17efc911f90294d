// Tab tools: list, reuse-or-open, open, focus, close. Tabs open in the background unless asked.
import { z } from 'zod';
import { defineTool } from './define.js';

// What an open or reuse answers: the handle the agent keeps, and the page it landed on when it loaded one.
const OPENED = z.object({ tab: z.string(), url: z.string().optional() });

export const tabs = defineTool({
  name: 'tabs',
  title: 'List tabs',
  category: 'tabs',
  description: 'List tabs: id, title, url; * current, + opened by this agent.',
  input: z.strictObject({}),
  output: z.object({
    tabs: z.array(z.object({ tab: z.string(), title: z.string(), url: z.string(), current: z.boolean() })),
  }),
  readOnly: true,
  destructive: false,
  policy: 'none',
  op: 'tabs',
});

export const tab_use = defineTool({
  name: 'tab_use',
  title: 'Use a tab',
  category: 'tabs',
  cap: 'extra',
  description: 'Make a tab current: reuse one matching url (exact, path, origin) or open it in the background.',
  input: z.strictObject({
    url: z.string(),
    focus: z.boolean().optional(),
  }),
  output: OPENED,
  readOnly: false,
  destructive: false,
  policy: 'read',
  op: 'tab_use',
  loadsUrl: true,
});

export const tab_new = defineTool({
  name: 'tab_new',
  title: 'New tab',
  category: 'tabs',
  description: 'Open a tab (background unless focus) and make it current.',
  input: z.strictObject({
    url: z.string().optional(),
    focus: z.boolean().optional(),
  }),
  output: OPENED,
  readOnly: false,
  destructive: false,
  policy: 'read',
  op: 'tab_new',
  loadsUrl: true,
});

export const tab_select = defineTool({
  name: 'tab_select',
  title: 'Select tab',
  category: 'tabs',
  description: 'Make a tab current; focus brings it to the front.',
  input: z.strictObject({ tab: z.string(), focus: z.boolean().optional() }),
  readOnly: false,
  destructive: false,
  policy: 'none',
  op: 'tab_select',
});

export const tab_close = defineTool({
  name: 'tab_close',
  title: 'Close tab',
  category: 'tabs',
  description: 'Close a tab this agent opened (default the current one).',
  input: z.strictObject({ tab: z.string().optional() }),
  readOnly: false,
  destructive: true,
  policy: 'none',
  op: 'tab_close',
});

// Act tools: pointer, keyboard, forms, scrolling and waiting. Every act aims at a real element and checks it landed.
import { z } from 'zod';
import { defineTool } from './define.js';
import { frameField, pointShape, tabShape, targetShape } from './target-shape.js';

const WAIT_TIMEOUT_MS = 10_000;

const MODIFIERS = z.array(z.enum(['Alt', 'Control', 'Meta', 'Shift'])).optional();

export const click = defineTool({
  name: 'click',
  title: 'Click',
  category: 'act',
  description:
    'Click a target (scrolled into view, checked not covered) or x,y; count 2 = double; snapshot adds the new outline.',
  input: z.strictObject({
    ...targetShape,
    ...pointShape,
    button: z.enum(['left', 'right', 'middle']).optional(),
    count: z.number().optional(),
    modifiers: MODIFIERS,
    snapshot: z.boolean().optional(),
    ...tabShape,
  }),
  readOnly: false,
  destructive: false,
  policy: 'act',
  op: 'click',
  commits: () => true,
  activatesControl: true,
});

export const hover = defineTool({
  name: 'hover',
  title: 'Hover',
  category: 'act',
  description: 'Move the mouse over a target or x,y.',
  input: z.strictObject({ ...targetShape, ...pointShape, ...tabShape }),
  readOnly: false,
  destructive: false,
  policy: 'act',
  op: 'hover',
});

export const drag = defineTool({
  name: 'drag',
  title: 'Drag and drop',
  category: 'act',
  cap: 'extra',
  description: 'Drag an element or x,y onto `to` (ref, selector or x,y): HTML5 drop, slider, sortable.',
  input: z.strictObject({
    ...targetShape,
    ...pointShape,
    // Only what names a drop target most often: every byte of a schema is paid on each turn.
    to: z.strictObject({ ref: targetShape.ref, selector: targetShape.selector, frame: frameField, ...pointShape }),
    ...tabShape,
  }),
  readOnly: false,
  destructive: false,
  policy: 'act',
  op: 'drag',
  // A drop can upload or save what it carries, as a click can.
  commits: () => true,
});

export const type = defineTool({
  name: 'type',
  title: 'Type text',
  category: 'act',
  description:
    "Type into the target or focused element; mode verbatim keeps indentation, set replaces a code editor's buffer; clear empties first; submit presses Enter.",
  input: z.strictObject({
    ...targetShape,
    text: z.string(),
    mode: z.enum(['insert', 'verbatim', 'set']).optional(),
    clear: z.boolean().optional(),
    submit: z.boolean().optional(),
    ...tabShape,
  }),
  readOnly: false,
  destructive: false,
  policy: 'act',
  op: 'type',
  // Typing alone sends nothing; pressing Enter after it may submit.
  commits: (args) => args.submit === true,
  activatesControl: true,
});

export const press = defineTool({
  name: 'press',
  title: 'Press keys',
  category: 'act',
  description: 'Press a key or combo (Enter, Control+A, Shift+Tab) on the target or focused element.',
  input: z.strictObject({
    ...targetShape,
    keys: z.string(),
    ...tabShape,
  }),
  readOnly: false,
  destructive: false,
  policy: 'act',
  op: 'press',
  commits: () => true,
  activatesControl: true,
});

export const fill_form = defineTool({
  name: 'fill_form',
  title: 'Fill form',
  category: 'act',
  description: 'Fill many fields at once: text, select (value or label), checkbox/radio (true/false).',
  input: z.strictObject({
    fields: z
      .array(z.strictObject({ ...targetShape, value: z.union([z.string(), z.boolean(), z.array(z.string())]) }))
      .min(1)
      .max(100),
    ...tabShape,
  }),
  readOnly: false,
  destructive: false,
  policy: 'act',
  op: 'fill_form',
  commits: () => true,
});

export const select_option = defineTool({
  name: 'select_option',
  title: 'Select option',
  category: 'act',
  cap: 'extra',
  description: 'Choose option(s) of a <select> by value or visible label.',
  input: z.strictObject({
    ...targetShape,
    values: z.union([z.string(), z.array(z.string())]),
    ...tabShape,
  }),
  readOnly: false,
  destructive: false,
  policy: 'act',
  op: 'select_option',
  commits: () => true,
});

export const scroll = defineTool({
  name: 'scroll',
  title: 'Scroll',
  category: 'act',
  cap: 'extra',
  description: 'Scroll the page or an element by dx/dy px, to top/bottom, or a target into view.',
  input: z.strictObject({
    ...targetShape,
    dx: z.number().optional(),
    dy: z.number().optional(),
    to: z.enum(['top', 'bottom']).optional(),
    ...tabShape,
  }),
  readOnly: false,
  destructive: false,
  policy: 'act',
  op: 'scroll',
});

export const wait_for = defineTool({
  name: 'wait_for',
  title: 'Wait for',
  category: 'act',
  description: `Wait until text/selector appears (gone: disappears), the URL contains url, or editorReady; after timeout ms (default ${WAIT_TIMEOUT_MS}): matched:false.`,
  input: z.strictObject({
    text: z.string().optional(),
    selector: z.string().optional(),
    url: z.string().optional(),
    editorReady: z.boolean().optional(),
    gone: z.boolean().optional(),
    frame: frameField,
    timeout: z.number().optional(),
    ...tabShape,
  }),
  output: z.object({ matched: z.boolean() }),
  readOnly: true,
  destructive: false,
  policy: 'read',
  op: 'wait_for',
  defaultTimeoutMs: WAIT_TIMEOUT_MS,
});

export const resize = defineTool({
  name: 'resize',
  title: 'Resize viewport',
  category: 'act',
  cap: 'extra',
  description: "Set the viewport of a tab this agent opened to width x height CSS px (never the person's tabs).",
  input: z.strictObject({
    width: z.number().int().min(100).max(8192),
    height: z.number().int().min(100).max(8192),
    ...tabShape,
  }),
  readOnly: false,
  destructive: false,
  policy: 'none',
  op: 'resize',
});

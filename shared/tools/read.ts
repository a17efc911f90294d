// Read tools: the page outline with refs, targeted lookups, text, HTML, screenshots and the frame list.
import { z } from 'zod';
import { defineTool } from './define.js';
import { frameField, tabShape, targetShape } from './target-shape.js';

export const snapshot = defineTool({
  name: 'snapshot',
  title: 'Snapshot',
  category: 'read',
  description:
    'Outline of the page and frames: `- role "name" [ref=e1]`. Element tools take ref, selector (CSS, pierces shadow DOM) or role+name (substring; "quoted" exact) + nth; frame: index or URL piece; element: a label for the person. Paged: limit (default 400), offset.',
  input: z.strictObject({
    frame: frameField,
    limit: z.number().optional(),
    offset: z.number().optional(),
    ...tabShape,
  }),
  readOnly: true,
  destructive: false,
  policy: 'read',
  op: 'snapshot',
});

export const find = defineTool({
  name: 'find',
  title: 'Find elements',
  category: 'read',
  description: 'Elements by text, role, name or selector, with refs, without a full snapshot (limit default 20).',
  input: z.strictObject({
    text: z.string().optional(),
    role: z.string().optional(),
    name: z.string().optional(),
    selector: z.string().optional(),
    frame: frameField,
    limit: z.number().optional(),
    ...tabShape,
  }),
  readOnly: true,
  destructive: false,
  policy: 'read',
  op: 'find',
});

export const frames = defineTool({
  name: 'frames',
  title: 'List frames',
  category: 'read',
  cap: 'extra',
  description: 'Frame tree: index, parent, origin, url, readable, control count.',
  input: z.strictObject({ ...tabShape }),
  readOnly: true,
  destructive: false,
  policy: 'read',
  op: 'frames',
});

/** get_text and get_html read the same thing in two forms: the page, or one element, up to maxChars. */
const pageOrElementInput = z.strictObject({
  ...targetShape,
  maxChars: z.number().optional(),
  ...tabShape,
});

export const get_text = defineTool({
  name: 'get_text',
  title: 'Get text',
  category: 'read',
  description: "Text of the page or one element (a field's value); maxChars default 8000.",
  input: pageOrElementInput,
  readOnly: true,
  destructive: false,
  policy: 'read',
  op: 'get_text',
});

export const get_html = defineTool({
  name: 'get_html',
  title: 'Get HTML',
  category: 'read',
  cap: 'extra',
  description: 'Outer HTML of the page or one element (script/style bodies as lengths); maxChars default 20000.',
  input: pageOrElementInput,
  readOnly: true,
  destructive: false,
  policy: 'read',
  op: 'get_html',
});

export const read_as_markdown = defineTool({
  name: 'read_as_markdown',
  title: 'Read as Markdown',
  category: 'read',
  description: "The page's (or a frame's) main content as Markdown, absolute links; maxChars default 12000.",
  input: z.strictObject({ frame: frameField, maxChars: z.number().optional(), ...tabShape }),
  readOnly: true,
  destructive: false,
  policy: 'read',
  op: 'read_as_markdown',
});

export const extract_links = defineTool({
  name: 'extract_links',
  title: 'Extract links',
  category: 'read',
  cap: 'extra',
  description: 'Shown links of every frame, each once in page order: text, absolute href; filter, limit (default 100).',
  input: z.strictObject({
    frame: frameField,
    filter: z.string().optional(),
    limit: z.number().optional(),
    ...tabShape,
  }),
  readOnly: true,
  destructive: false,
  policy: 'read',
  op: 'extract_links',
});

export const screenshot = defineTool({
  name: 'screenshot',
  title: 'Screenshot',
  category: 'read',
  description: 'Screenshot of the viewport, full page (clamped) or one element; JPEG unless png.',
  input: z.strictObject({
    ...targetShape,
    fullPage: z.boolean().optional(),
    format: z.enum(['jpeg', 'png']).optional(),
    quality: z.number().optional(),
    ...tabShape,
  }),
  readOnly: true,
  destructive: false,
  policy: 'read',
  op: 'screenshot',
  captures: true,
  // Longer than the default: a capture waits for the tab to draw, and a full page is a large answer to carry.
  budgetMs: 60_000,
});

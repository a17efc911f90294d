// Navigation: go to a URL or move through history, waiting for a real load signal rather than a fixed sleep.
import { z } from 'zod';
import { defineTool } from './define.js';
import { tabShape } from './target-shape.js';

export const WAIT_UNTIL = ['load', 'domcontentloaded', 'networkidle'] as const;

const NAVIGATE_TIMEOUT_MS = 30_000;

export const navigate = defineTool({
  name: 'navigate',
  title: 'Navigate',
  category: 'navigation',
  description: `Go to url, or back/forward/reload; waits for load (or waitUntil), timeout ms default ${NAVIGATE_TIMEOUT_MS}.`,
  input: z.strictObject({
    url: z.string().optional(),
    action: z.enum(['back', 'forward', 'reload']).optional(),
    waitUntil: z.enum(WAIT_UNTIL).optional(),
    timeout: z.number().optional(),
    ...tabShape,
  }),
  // A download leaves the tab where it was, and says so instead of a page.
  output: z.object({
    url: z.string().optional(),
    title: z.string().optional(),
    status: z.number().optional(),
    download: z.boolean().optional(),
  }),
  readOnly: false,
  destructive: false,
  policy: 'read',
  op: 'navigate',
  loadsUrl: true,
  defaultTimeoutMs: NAVIGATE_TIMEOUT_MS,
  // Leaving a page needs nothing of it: the page it loads is judged by `policy`.
  mainLevel: () => 'none',
});

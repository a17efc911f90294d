// File tools: files in (upload_file, an act) from the folders the person allowed, files out (download, downloads) into
// the app's own downloads folder while the policy allows downloads.
import { z } from 'zod';
import { MAX_UPLOAD_FILES } from '../protocol/operations.js';
import { defineTool } from './define.js';
import { tabShape, targetShape } from './target-shape.js';

export const upload_file = defineTool({
  name: 'upload_file',
  title: 'Upload files',
  category: 'act',
  description: 'Put files from the upload folders on a file input, or in the chooser a button opens.',
  input: z.strictObject({
    ...targetShape,
    paths: z.array(z.string().min(1).max(4096)).min(1).max(MAX_UPLOAD_FILES),
    ...tabShape,
  }),
  readOnly: false,
  destructive: false,
  policy: 'act',
  op: 'upload_file',
  // A page may send the file as soon as it is set (an upload on change), and the chooser route clicks.
  commits: () => true,
  files: 'in',
});

export const download = defineTool({
  name: 'download',
  title: 'Download file',
  category: 'files',
  cap: 'files',
  description: 'Save a url, a link, or what clicking target downloads; gives path, size, type, text preview.',
  input: z.strictObject({ ...targetShape, url: z.string().optional(), ...tabShape }),
  output: z.object({
    path: z.string(),
    name: z.string(),
    size: z.number(),
    mimeType: z.string(),
    preview: z.string().optional(),
  }),
  readOnly: false,
  destructive: false,
  // Loading a URL reads its site; clicking for a download acts on the page.
  policy: 'act',
  mainLevel: (args) => (args.url === undefined ? 'act' : 'read'),
  op: 'download',
  commits: (args) => args.url === undefined,
  loadsUrl: true,
  budgetMs: 90_000,
  files: 'out',
});

export const downloads = defineTool({
  name: 'downloads',
  title: 'List downloads',
  category: 'files',
  cap: 'files',
  description: 'Files saved by download: name, size, path, newest first.',
  input: z.strictObject({}),
  readOnly: true,
  destructive: false,
  policy: 'none',
  op: 'downloads',
});

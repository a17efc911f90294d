// An upload's files as bytes, for a browser that may not read them from disk (the person's Chrome: docs/files.md),
// within the cap on what one call carries over the wire.
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { ToolError } from '../../../shared/protocol/errors.js';
import { MAX_FILE_BYTES, type PageFile } from '../../../shared/protocol/operations.js';

/** `paths`: real paths resolveUploadPaths let through. */
export async function readUploads(paths: readonly string[]): Promise<PageFile[]> {
  const total = paths.reduce((sum, path) => sum + statSync(path).size, 0);
  if (total > MAX_FILE_BYTES)
    throw new ToolError(
      'FILE_REFUSED',
      `The files come to ${(total / 2 ** 20).toFixed(1)} MiB, over the ${MAX_FILE_BYTES / 2 ** 20} MiB one upload may carry to your Chrome.`,
      { next: 'Upload fewer or smaller files.' },
    );
  // Loaded here, not at start: mime-types carries a 230 KB type table that every start would parse before tools/list,
  // for the one call (an upload through the extension) that needs it. Its `default` (module.exports): a CommonJS
  // module's named exports are Node's guess, and the bundled CLI's import() offers only the default.
  const { default: mime } = await import('mime-types');
  return paths.map((path) => ({
    name: basename(path),
    // A type the page may check in an `accept` list or on File.type; one mime-types does not know goes as none.
    mimeType: mime.lookup(path) || '',
    base64: readFileSync(path).toString('base64'),
  }));
}

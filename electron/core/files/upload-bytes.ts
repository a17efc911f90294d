// An upload's files as bytes, for a browser that may not read them from disk (the person's Chrome: docs/files.md),
// within the cap on what one call carries over the wire.
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { lookup } from 'mime-types';
import { ToolError } from '../../../shared/protocol/errors.js';
import { MAX_FILE_BYTES, type PageFile } from '../../../shared/protocol/operations.js';

/** `paths`: real paths resolveUploadPaths let through. */
export function readUploads(paths: readonly string[]): PageFile[] {
  const total = paths.reduce((sum, path) => sum + statSync(path).size, 0);
  if (total > MAX_FILE_BYTES)
    throw new ToolError(
      'FILE_REFUSED',
      `The files come to ${(total / 2 ** 20).toFixed(1)} MiB, over the ${MAX_FILE_BYTES / 2 ** 20} MiB one upload may carry to your Chrome.`,
      { next: 'Upload fewer or smaller files.' },
    );
  return paths.map((path) => ({
    name: basename(path),
    // A type the page may check in an `accept` list or on File.type; one mime-types does not know goes as none.
    mimeType: lookup(path) || '',
    base64: readFileSync(path).toString('base64'),
  }));
}

// An upload's files as bytes, for a browser that may not read them from disk (the person's Chrome: docs/files.md),
// within the cap on what one call carries over the wire.
import { readFileSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { ToolError } from '../../../shared/protocol/errors.js';
import { MAX_FILE_BYTES, type PageFile } from '../../../shared/protocol/operations.js';

// The types a page is likely to check in an `accept` list or on File.type; anything else goes as bytes of no type.
// Hand-written: mime-types (in the tree through express) is not a dependency of ours.
const TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.zip': 'application/zip',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.md': 'text/markdown',
};

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
    mimeType: TYPES[extname(path).toLowerCase()] ?? '',
    base64: readFileSync(path).toString('base64'),
  }));
}

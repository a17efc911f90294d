// The one check an upload's paths pass before any browser sees them: each resolves, through every symlink, to a
// regular file inside a folder the person allowed; anything else is FILE_REFUSED, naming the path and the folders.
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { ToolError } from '../../../shared/protocol/errors.js';
import type { FileFolders } from './folders.js';

/** The real paths of `paths`, in order; a relative path is taken inside the default uploads folder. */
export function resolveUploadPaths(paths: readonly string[], folders: FileFolders): string[] {
  const roots = folders.uploads.flatMap((dir) => {
    try {
      return [realpathSync(dir)];
    } catch {
      return [];
    }
  });
  return paths.map((path) => resolveOne(path, folders, roots));
}

function resolveOne(path: string, folders: FileFolders, roots: readonly string[]): string {
  const refuse = (why: string) =>
    new ToolError('FILE_REFUSED', `${path}: ${why}.`, {
      next: `Put the file in ${folders.uploads.join(' or ')} and pass its path there; other folders need the person's --upload-dir.`,
    });
  // Refused as written, before any resolving: a path that climbs out is never what a folder the person allowed holds.
  if (path.split(/[\\/]/).includes('..')) throw refuse('a path may not climb out of a folder with ".."');
  const asked = isAbsolute(path) ? path : resolve(folders.uploads[0]!, path);
  let real: string;
  try {
    real = realpathSync(asked);
  } catch {
    throw refuse('no such file');
  }
  // The real path decides: a symlink inside an allowed folder that points outside it is refused.
  if (!roots.some((root) => isInside(real, root))) throw refuse('outside the folders the person allowed for uploads');
  if (!statSync(real).isFile()) throw refuse('not a regular file');
  return real;
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

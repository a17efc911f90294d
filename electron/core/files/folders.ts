// The folders files move through: uploads come only from the person's allowed folders (the data dir's `uploads`, plus
// each `--upload-dir`), downloads go only into the data dir's `downloads`.
import { join, resolve } from 'node:path';
import { ensurePrivateDir } from '../pairing/private-files.js';

export interface FileFolders {
  /** The default one first: a relative path is taken inside it. */
  uploads: readonly string[];
  downloads: string;
}

export function fileFolders(dataDir: string, uploadDirs: readonly string[] = []): FileFolders {
  return {
    uploads: [join(dataDir, 'uploads'), ...uploadDirs.map((dir) => resolve(dir))],
    downloads: join(dataDir, 'downloads'),
  };
}

/** Makes the app's own folders (yours only); the person's `--upload-dir` folders are theirs and left as they are. */
export function prepareFolders(folders: FileFolders): void {
  ensurePrivateDir(folders.uploads[0]!);
  ensurePrivateDir(folders.downloads);
}

// Files only this user may read: a 0700 data dir and 0600 files written atomically, modes checked after the fact.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import type { z } from 'zod';

// Windows has no POSIX modes (the user's profile ACL protects the data dir there); everywhere else they are the boundary.
const POSIX = process.platform !== 'win32';

/** Creates the data dir 0700, or tightens an existing one; refuses a dir another user owns. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!POSIX) return;
  const stat = statSync(dir);
  if (!stat.isDirectory()) throw new Error(`${dir} is not a folder`);
  if (stat.uid !== process.getuid?.())
    throw new Error(`${dir} belongs to another user: refusing to keep secrets there`);
  if ((stat.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
  if ((statSync(dir).mode & 0o777) !== 0o700) throw new Error(`could not make ${dir} private (mode 0700)`);
}

/**
 * Writes `text` to `path` with `mode` so that a reader sees the old file or the new one, never half of one: a fresh
 * temp file (O_EXCL, so nothing planted at that name is followed), fsync, rename. The mode is verified after the
 * rename and the file removed if it is wrong (a umask cannot widen it, but a filesystem may ignore modes).
 */
export function writeFileAtomic(path: string, text: string, mode = 0o600): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    if (POSIX) chmodSync(temp, mode);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  if (POSIX && (statSync(path).mode & 0o777) !== mode) {
    rmSync(path, { force: true });
    throw new Error(`${path} did not keep mode ${mode.toString(8)}: removed it`);
  }
}

/** The file decoded with `schema`; undefined when it is missing or unreadable. A private file found too open is closed first. */
export function readPrivateJson<T>(path: string, schema: z.ZodType<T>): T | undefined {
  let text: string;
  try {
    if (POSIX && (statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function removeFile(path: string): void {
  rmSync(path, { force: true });
}

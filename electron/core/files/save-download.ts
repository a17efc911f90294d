// A downloaded file into the app's downloads folder: a safe name of its own (never overwriting), 0600, and what the
// model is told of it: path, size, type and, for text, its first lines (redacted).
import { openSync, readdirSync, statSync, writeSync, closeSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { OperationResult, PageFile } from '../../../shared/protocol/operations.js';
import { redactText } from '../../../shared/redact/text.js';
import { fileNameOf } from './file-name.js';

const PREVIEW_LINES = 10;
const PREVIEW_LINE_CHARS = 200;

export interface SavedFile {
  path: string;
  name: string;
  size: number;
  mimeType: string;
  preview?: string;
}

export function saveDownload(file: PageFile, dir: string): SavedFile {
  const bytes = Buffer.from(file.base64, 'base64');
  const { path, name } = writeNew(dir, fileNameOf(file), bytes);
  const preview = isText(file.mimeType) ? previewOf(bytes) : undefined;
  return { path, name, size: bytes.length, mimeType: file.mimeType, ...(preview ? { preview } : {}) };
}

export function savedResult(saved: SavedFile): OperationResult {
  const head = `saved ${saved.name} (${sizeLabel(saved.size)}, ${saved.mimeType}) to ${saved.path}`;
  const text = saved.preview ? `${head}\nfirst lines:\n${saved.preview}` : head;
  return { text, data: { ...saved } };
}

/** What the downloads folder holds, newest first. */
export function listDownloads(dir: string): OperationResult {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    names = [];
  }
  const files = names
    .map((name) => ({ name, stat: statSync(join(dir, name)) }))
    .filter((entry) => entry.stat.isFile())
    .sort((a, b) => b.stat.mtimeMs - a.stat.mtimeMs)
    .map(({ name, stat }) => ({ name, path: join(dir, name), size: stat.size, saved: stat.mtime.toISOString() }));
  const lines = files.map((file) => `${file.name}  ${sizeLabel(file.size)}  ${file.saved}`);
  return {
    text: files.length ? [`${files.length} in ${dir}:`, ...lines].join('\n') : `No downloads yet (${dir}).`,
    data: { folder: dir, files },
  };
}

/** Opened with O_EXCL: a name taken already (or a link planted under it) gets the next free " (n)" name instead. */
function writeNew(dir: string, name: string, bytes: Buffer): { path: string; name: string } {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${stem} (${n})${ext}`;
    const path = join(dir, candidate);
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && n < 1000) continue;
      throw error;
    }
    try {
      writeSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
    return { path, name: candidate };
  }
}

function isText(mimeType: string): boolean {
  return /^text\/|^application\/([\w.+-]*\+)?(json|xml|javascript|ecmascript|x-ndjson|csv)$/.test(mimeType);
}

function previewOf(bytes: Buffer): string {
  const head = bytes.subarray(0, PREVIEW_LINES * PREVIEW_LINE_CHARS * 4).toString('utf8');
  const lines = head.split(/\r?\n/).slice(0, PREVIEW_LINES);
  return redactText(lines.map((line) => line.slice(0, PREVIEW_LINE_CHARS)).join('\n'));
}

function sizeLabel(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 2 ** 20) return `${(size / 1024).toFixed(1)} KiB`;
  return `${(size / 2 ** 20).toFixed(1)} MiB`;
}

// The audit log: every call as one redacted JSON line in `<data-dir>/audit.jsonl` (0600), redacted and written in
// batches off the caller's path through one append handle kept open, kept to one old file of 10 MB.
import { type FileHandle, open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { type AuditEntry, AuditEntrySchema, type AuditFilter } from '../../../shared/control/audit.js';
import { redactText } from '../../../shared/redact/text.js';
import type { Log } from '../log.js';

export const AUDIT_FILE = 'audit.jsonl';
export const AUDIT_OLD_FILE = 'audit.1.jsonl';
const MAX_BYTES = 10 * 1024 * 1024;
const POSIX = process.platform !== 'win32';

export interface AuditLogOptions {
  /** Already private (0700): see ensurePrivateDir. */
  dataDir: string;
  log: Log;
  /** Rotate once the file reaches this size. */
  maxBytes?: number;
}

export class AuditLog {
  private readonly path: string;
  private readonly oldPath: string;
  private readonly maxBytes: number;
  private pending: AuditEntry[] = [];
  private written: Promise<void> = Promise.resolve();
  /**
   * The file, open for appending, and its size as we last left it: opened at the first write, and again after a
   * rotation or a failed write. One open file rather than an open, a write and a close per batch: every call is
   * audited, and the three trips to the file system were a share of each call's cost.
   */
  private file: { handle: FileHandle; size: number } | undefined;

  constructor(private readonly options: AuditLogOptions) {
    this.path = join(options.dataDir, AUDIT_FILE);
    this.oldPath = join(options.dataDir, AUDIT_OLD_FILE);
    this.maxBytes = options.maxBytes ?? MAX_BYTES;
  }

  /**
   * Queues one entry; entries queued while a write is under way go out together in the next one. Redacting them waits
   * for the next turn of the event loop: the call that appended answers first (it cost ~0.7 ms a call on the path).
   */
  append(entry: AuditEntry): void {
    this.pending.push(entry);
    if (this.pending.length === 1) this.written = this.written.then(nextTurn).then(() => this.drain());
  }

  /** Resolves once every line appended so far is on disk (or its failure logged). */
  flush(): Promise<void> {
    return this.written;
  }

  /** Writes what is queued, then lets go of the file; a line appended later opens it again. */
  async close(): Promise<void> {
    this.written = this.written.then(() => this.release());
    await this.written;
  }

  /** Entries from both files matching `filter`, newest last. */
  async read(filter: AuditFilter): Promise<AuditEntry[]> {
    await this.flush();
    const texts = await Promise.all(
      [this.oldPath, this.path].map((path) => readFile(path, 'utf8').catch(missingAsEmpty)),
    );
    const site = filter.site?.toLowerCase();
    const matches = (entry: AuditEntry) =>
      (filter.tool === undefined || entry.tool === filter.tool) &&
      (filter.decision === undefined || entry.decision === filter.decision) &&
      (site === undefined || (entry.url ?? '').toLowerCase().includes(site)) &&
      (filter.since === undefined || Date.parse(entry.time) >= filter.since);
    return texts
      .flatMap((text) => text.split('\n'))
      .flatMap(parseLine)
      .filter(matches)
      .slice(-filter.limit);
  }

  private async drain(): Promise<void> {
    const text = this.pending
      .splice(0)
      .map((entry) => `${JSON.stringify(redactEntry(entry))}\n`)
      .join('');
    try {
      const file = (this.file ??= await this.openFile());
      await file.handle.appendFile(text);
      file.size += Buffer.byteLength(text);
      if (file.size >= this.maxBytes) {
        await this.release();
        await rename(this.path, this.oldPath);
      }
    } catch (error) {
      await this.release();
      this.options.log(
        `audit: could not write ${this.path}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private async openFile(): Promise<{ handle: FileHandle; size: number }> {
    // The mode applies when this creates the file; one that already existed too open is closed up here.
    const handle = await open(this.path, 'a', 0o600);
    try {
      const found = await handle.stat();
      if (POSIX && (found.mode & 0o077) !== 0) await handle.chmod(0o600);
      return { handle, size: found.size };
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  private async release(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await file?.handle.close().catch(() => undefined);
  }
}

/**
 * Every string the caller chose through the redactor, which never throws; should it ever, the field is masked whole.
 * `time` (an ISO stamp the hub makes) and `decision` (an enum) carry nothing a page wrote. Unknown fields are dropped.
 */
function redactEntry(entry: AuditEntry): AuditEntry {
  const clean = (text: string): string => {
    try {
      return redactText(text);
    } catch {
      return '[redacted]';
    }
  };
  const optional = (key: 'element' | 'url' | 'code', value: string | undefined) =>
    value === undefined ? {} : { [key]: clean(value) };
  return {
    time: entry.time,
    client: clean(entry.client),
    tool: clean(entry.tool),
    ...optional('element', entry.element),
    ...optional('url', entry.url),
    decision: entry.decision,
    ...optional('code', entry.code),
    ...(entry.ms === undefined ? {} : { ms: entry.ms }),
  };
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

// A line cut short by a crash, or edited by hand, is skipped rather than failing the whole read.
function parseLine(line: string): AuditEntry[] {
  if (!line) return [];
  try {
    const parsed = AuditEntrySchema.safeParse(JSON.parse(line));
    return parsed.success ? [parsed.data] : [];
  } catch {
    return [];
  }
}

function missingAsEmpty(error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return '';
  throw error;
}

// The audit log: every call as one redacted JSON line in `<data-dir>/audit.jsonl` (0600), written in batches off the
// caller's path, kept to one old file of 10 MB.
import { appendFile, chmod, readFile, rename, stat } from 'node:fs/promises';
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
  private pending: string[] = [];
  private written: Promise<void> = Promise.resolve();
  /** The file's size as we last left it; unknown until the first write, and again after a failed one. */
  private size: number | undefined;

  constructor(private readonly options: AuditLogOptions) {
    this.path = join(options.dataDir, AUDIT_FILE);
    this.oldPath = join(options.dataDir, AUDIT_OLD_FILE);
    this.maxBytes = options.maxBytes ?? MAX_BYTES;
  }

  /** Queues one line; lines queued while a write is under way go out together in the next one. */
  append(entry: AuditEntry): void {
    this.pending.push(`${JSON.stringify(redactEntry(entry))}\n`);
    if (this.pending.length === 1) this.written = this.written.then(() => this.drain());
  }

  /** Resolves once every line appended so far is on disk (or its failure logged). */
  flush(): Promise<void> {
    return this.written;
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
    const text = this.pending.splice(0).join('');
    try {
      this.size ??= await this.sizeOnDisk();
      // The mode applies when this creates the file; sizeOnDisk closed up one that already existed.
      await appendFile(this.path, text, { mode: 0o600 });
      this.size += Buffer.byteLength(text);
      if (this.size >= this.maxBytes) {
        await rename(this.path, this.oldPath);
        this.size = 0;
      }
    } catch (error) {
      this.size = undefined;
      this.options.log(
        `audit: could not write ${this.path}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private async sizeOnDisk(): Promise<number> {
    try {
      const found = await stat(this.path);
      if (POSIX && (found.mode & 0o077) !== 0) await chmod(this.path, 0o600);
      return found.size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
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

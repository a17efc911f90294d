// The audit log's line format and the filter `audit.read` takes.
import { z } from 'zod';
import { CALL_DECISIONS, CallRecordSchema } from './activity.js';

/** A call record as the log keeps it: the record's fields but its panel-only id and summary, with an ISO 8601 time. */
export const AuditEntrySchema = CallRecordSchema.omit({ id: true, summary: true }).extend({ time: z.string() });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const MAX_AUDIT_READ = 1_000;

export const AuditFilterSchema = z.strictObject({
  tool: z.string().max(100).optional(),
  decision: z.enum(CALL_DECISIONS).optional(),
  /** A substring of the entry's URL. */
  site: z.string().max(300).optional(),
  /** Entries at or after this time (ms since the epoch). */
  since: z.number().optional(),
  limit: z.number().int().min(1).max(MAX_AUDIT_READ).default(200),
});
export type AuditFilter = z.output<typeof AuditFilterSchema>;

// The audit log's line format and the filter `audit.read` takes.
import { z } from 'zod';
import { CALL_DECISIONS } from './activity.js';

export const AuditEntrySchema = z.strictObject({
  /** ISO 8601. */
  time: z.string(),
  client: z.string(),
  tool: z.string(),
  element: z.string().optional(),
  url: z.string().optional(),
  decision: z.enum(CALL_DECISIONS),
  code: z.string().optional(),
  ms: z.number().optional(),
});
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

// The part of `status.core` the connection screen shows. The API types it as an open record (the core adds what it
// knows), so it is read leniently here: a field the core does not report shows as unknown, never as an error.
import { z } from 'zod';

const CoreStatusSchema = z
  .object({
    /** What the next page call would use: extension, fallback or none. */
    backend: z.string(),
    browser: z
      .object({
        launched: z.boolean(),
        executable: z.string().nullable(),
        headless: z.boolean(),
        tabs: z.number(),
      })
      .partial(),
  })
  .partial();
export type CoreStatus = z.infer<typeof CoreStatusSchema>;

export function coreStatus(core: Record<string, unknown> | undefined): CoreStatus {
  const parsed = CoreStatusSchema.safeParse(core ?? {});
  return parsed.success ? parsed.data : {};
}

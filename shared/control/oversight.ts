// The person's oversight state as the control API shows it: the agent's plan and whether the person stopped it.
import { z } from 'zod';

/** Longest interjection, stop message or agent reply: a person's note, not a document. */
export const MAX_MESSAGE = 2_000;

export const PlanSchema = z.strictObject({
  steps: z.array(z.string()),
  /** The agent waits for `approved` before its first act on a site. */
  askFirst: z.boolean(),
  approved: z.boolean(),
  /** When the agent posted it (ms since the epoch). */
  posted: z.number(),
});
export type Plan = z.infer<typeof PlanSchema>;

export const StoppedSchema = z.strictObject({
  /** Every call returns STOPPED with this message until the person resumes. */
  message: z.string(),
  since: z.number(),
});
export type Stopped = z.infer<typeof StoppedSchema>;

// Held acts as the control API shows them: what a risky act would send, waiting for the person to release or reject it.
import { z } from 'zod';

/** The engine's card for a held act (the HELD error's `data.held`), as the core keeps it. */
export const HeldCardSchema = z.strictObject({
  /** The engine's id, prefixed with its tab tag, so a stale one is recognisable. */
  id: z.string().min(1).max(100),
  site: z.string().max(300),
  method: z.string().max(16),
  /** Query values masked. */
  url: z.string().max(2_000),
  /** What would be sent: field names and values, secrets and passwords masked. */
  summary: z.string().max(2_000),
  /** Why it was held: the control and the request that make it risky. */
  why: z.string().max(600),
  tool: z.string().max(64),
});
export type HeldCard = z.infer<typeof HeldCardSchema>;

export const HeldActSchema = HeldCardSchema.extend({ held: z.number() });
export type HeldAct = z.infer<typeof HeldActSchema>;

/** What became of a held act: sent as shown, never sent, or gone unsent (its page changed, its browser went away). */
export const HELD_OUTCOMES = ['released', 'rejected', 'gone'] as const;
export type HeldOutcome = (typeof HELD_OUTCOMES)[number];

/** Why a `gone` act went, as the person and the agent are told it; no longer than this. */
export const HELD_WHY_CHARS = 600;
export const HeldWhySchema = z.string().max(HELD_WHY_CHARS);

export interface HeldDecision {
  outcome: HeldOutcome;
  /** For `gone`: what happened first. */
  why?: string;
}

// release_held: the person's decision on a held act, which the core passes on; never an MCP tool, so never the agent's.
import { z } from 'zod';
import { ToolError } from '../../protocol/errors.js';
import type { OperationResult } from '../../protocol/operations.js';
import type { HeldActs } from './held-acts.js';

export const ReleaseHeldArgsSchema = z.strictObject({
  /** The card's id (`<tab tag>.h<n>`). */
  id: z.string().min(1).max(100),
  /** true: the held requests go out exactly as they are; false: never. */
  release: z.boolean(),
});

/** Parsed here, not by a tool's schema: no catalog entry stands in front of this operation. */
export async function releaseHeld(acts: HeldActs, args: Record<string, unknown>): Promise<OperationResult> {
  const parsed = ReleaseHeldArgsSchema.safeParse(args);
  if (!parsed.success) {
    throw new ToolError(
      'BAD_ARGS',
      `release_held: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'args'}: ${issue.message}`).join('; ')}`,
      {
        next: "release_held takes only: id (the held card's id), release (true or false).",
      },
    );
  }
  return acts.decide(parsed.data.id, parsed.data.release);
}

// The policy as the editor sees and edits it: text-form rules, this run's grants, the built-in blind list.
import { z } from 'zod';
import { toolSets } from '../policy/file.js';
import { RuleTextSchema } from '../policy/transfer.js';

const MAX_RULES = 2_000;
const DEFAULTS = ['ask', 'blocked'] as const;

export const PolicyEditSchema = z.strictObject({
  rules: z.array(RuleTextSchema).max(MAX_RULES),
  default: z.enum(DEFAULTS),
  downloads: z.boolean(),
  /** The opt-in tool sets switched on; absent, they stay as they are. */
  tools: toolSets().optional(),
});
export type PolicyEdit = z.infer<typeof PolicyEditSchema>;

export const PolicyViewSchema = z.strictObject({
  ...PolicyEditSchema.shape,
  tools: toolSets(),
  /** This run only (--allow, --trust, "allow once", "deny"): never written to the file. */
  grants: z.array(RuleTextSchema),
  /** The built-in blind list by group; no rule reaches past it. */
  blind: z.record(z.string(), z.array(z.string())),
  /** Where the standing rules persist. */
  file: z.string(),
});
export type PolicyView = z.infer<typeof PolicyViewSchema>;

// The policy as text-form JSON, for the wire to the extension and the control API: patterns travel in their canonical
// spelling and are parsed again on arrival with the same parser, so no end trusts another's parsed data.
import { z } from 'zod';
import { parseRule } from './breadth.js';
import { PolicyFormatError } from './format-error.js';
import { RULE_LEVELS } from './levels.js';
import { patternText } from './pattern.js';
import type { Policy, Rule } from './policy.js';
import { toolSets } from './file.js';

const MAX_RULES = 2_000;

export const RuleTextSchema = z.strictObject({ site: z.string().min(1).max(300), level: z.enum(RULE_LEVELS) });
export type RuleText = z.infer<typeof RuleTextSchema>;

export const PolicyTransferSchema = z.strictObject({
  rules: z.array(RuleTextSchema).max(MAX_RULES),
  grants: z.array(RuleTextSchema).max(MAX_RULES),
  default: z.enum(['ask', 'blocked']),
  downloads: z.boolean(),
  tools: toolSets(),
  self: z.array(z.string().min(1).max(300)).max(16),
});
export type PolicyTransfer = z.infer<typeof PolicyTransferSchema>;

export function ruleToText(rule: Rule): RuleText {
  return { site: patternText(rule.site), level: rule.level };
}

export function policyToTransfer(policy: Policy): PolicyTransfer {
  return {
    rules: policy.rules.map(ruleToText),
    grants: policy.grants.map(ruleToText),
    default: policy.default,
    downloads: policy.downloads,
    tools: [...policy.tools],
    self: policy.self.map(patternText),
  };
}

/** Parses rule texts; throws PolicyFormatError naming every bad one (a bad pattern, or too broad) by its index. */
export function rulesFromText(rules: readonly RuleText[], field = 'rules'): Rule[] {
  const problems: string[] = [];
  const parsed = rules.flatMap((rule, index) => {
    try {
      return [parseRule(rule.site, rule.level)];
    } catch (error) {
      problems.push(`${field}[${index}]: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  });
  if (problems.length) throw new PolicyFormatError(problems);
  return parsed;
}

/** The inverse of policyToTransfer; throws PolicyFormatError when a pattern does not parse. */
export function policyFromTransfer(transfer: PolicyTransfer): Policy {
  return {
    rules: rulesFromText(transfer.rules),
    grants: rulesFromText(transfer.grants, 'grants'),
    default: transfer.default,
    downloads: transfer.downloads,
    tools: transfer.tools,
    self: rulesFromText(
      transfer.self.map((site) => ({ site, level: 'blocked' as const })),
      'self',
    ).map((rule) => rule.site),
  };
}

// Builds policies for the policy tests from plain [site, level] pairs.
import type { RuleLevel } from '../../shared/policy/levels.js';
import { parseRule } from '../../shared/policy/breadth.js';
import { DEFAULT_POLICY, type Policy, type Rule } from '../../shared/policy/policy.js';

export type RuleSpec = readonly [site: string, level: RuleLevel];

export function rules(specs: readonly RuleSpec[]): Rule[] {
  // parseRule, as the policy file does: a table row too broad for its level fails the test instead of passing unseen.
  return specs.map(([site, level]) => parseRule(site, level));
}

export function policy(
  specs: readonly RuleSpec[],
  extra: Partial<Omit<Policy, 'rules' | 'grants'>> & { grants?: readonly RuleSpec[] } = {},
): Policy {
  const { grants = [], ...rest } = extra;
  return { ...DEFAULT_POLICY, ...rest, rules: rules(specs), grants: rules(grants) };
}

/** What a decision boils down to in a table: the granted level, or the refusal reason. */
export function outcome(decision: { allowed: true; level: string } | { allowed: false; reason: string }): string {
  return decision.allowed ? decision.level : decision.reason;
}

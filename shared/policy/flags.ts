// --allow and --trust: one-run grants from the command line, layered on the policy file.
import { parseRule } from './breadth.js';
import { PolicyFormatError } from './format-error.js';
import type { RuleLevel } from './levels.js';
import { DEFAULT_POLICY, type Policy, type Rule } from './policy.js';

export interface PolicyFlags {
  /** `--allow host[,host]`, repeatable: `act` for this run. */
  allow: readonly string[];
  /** `--trust host[,host]`, repeatable: `trusted` (scripts) for this run. */
  trust: readonly string[];
}

/** Adds the flags' grants to `base`; throws PolicyFormatError naming each bad value and its flag. */
export function policyFromFlags(flags: PolicyFlags, base: Policy = DEFAULT_POLICY): Policy {
  const problems: string[] = [];
  const grantsFor = (values: readonly string[], flag: string, level: RuleLevel): Rule[] =>
    values
      .flatMap((value) => value.split(','))
      .map((item) => item.trim())
      .filter(Boolean)
      .flatMap((item) => {
        try {
          return [parseRule(item, level)];
        } catch (error) {
          problems.push(`${flag}: ${error instanceof Error ? error.message : String(error)}`);
          return [];
        }
      });
  const added = [...grantsFor(flags.allow, '--allow', 'act'), ...grantsFor(flags.trust, '--trust', 'trusted')];
  if (problems.length) throw new PolicyFormatError(problems);
  return { ...base, grants: [...base.grants, ...added] };
}

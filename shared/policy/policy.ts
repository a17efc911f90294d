// The policy object both ends hold, its safe default, and the precedence that picks one rule for a site.
import { rank, type DefaultLevel, type RuleLevel } from './levels.js';
import { patternMatches, specificity, type SitePattern } from './pattern.js';
import type { Site } from './site.js';
import type { ToolCap } from './tool-caps.js';

export interface Rule {
  site: SitePattern;
  level: RuleLevel;
}

/** Plain data, so the core can hand the same object to the extension. */
export interface Policy {
  /** The person's standing rules: the policy file and the policy editor. */
  rules: readonly Rule[];
  /** This run only: --allow / --trust, and "allow once" answers. Never written back to the file. */
  grants: readonly Rule[];
  /** Where a site with no rule stands. */
  default: DefaultLevel;
  /** Downloads stay off until the person turns them on (seed 000 safe default). */
  downloads: boolean;
  /** The opt-in tool sets the person switched on: every MCP session lists them, besides any a flag adds. */
  tools: readonly ToolCap[];
  /** chrome-mcp's own UI origins (the loopback control page), blind like the built-in list; set by the core, never by the file. */
  self: readonly SitePattern[];
}

export const DEFAULT_POLICY: Policy = { rules: [], grants: [], default: 'ask', downloads: false, tools: [], self: [] };

export interface Standing {
  level: RuleLevel | DefaultLevel;
  /** The rule that decided, absent when the default did. */
  rule?: Rule;
}

/**
 * Precedence, after the blind list (which no rule reaches):
 * 1. the most specific matching pattern wins, from rules and grants alike (see `specificity`);
 * 2. among equally specific ones, `blocked` wins;
 * 3. then a grant beats a standing rule (the person asked for it for this run);
 * 4. then the lower level, so a rule written twice errs on the safe side.
 * No match: the policy's default.
 */
export function standingOf(site: Site, policy: Policy): Standing {
  let best: { rule: Rule; key: readonly number[] } | undefined;
  const consider = (rule: Rule, isGrant: boolean): void => {
    if (!patternMatches(rule.site, site)) return;
    const key = [specificity(rule.site), rule.level === 'blocked' ? 1 : 0, isGrant ? 1 : 0, -rank(rule.level)];
    if (!best || isGreater(key, best.key)) best = { rule, key };
  };
  for (const rule of policy.rules) consider(rule, false);
  for (const rule of policy.grants) consider(rule, true);
  return best ? { level: best.rule.level, rule: best.rule } : { level: policy.default };
}

function isGreater(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return false;
}

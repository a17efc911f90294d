// Policy levels and their order: what a rule grants, what a tool needs, and the one comparison between them.
/** What a rule can give a site, weakest first; `trusted` is the only level that runs scripts. */
export const RULE_LEVELS = ['blocked', 'read', 'act', 'trusted'] as const;
export type RuleLevel = (typeof RULE_LEVELS)[number];

/** Policy level a tool needs on the page's site: none (no page), read, act, or trusted (runs scripts). */
export type PolicyLevel = 'none' | 'read' | 'act' | 'trusted';

/** What a tool needs on a page: every catalog level except `none`, which touches no page. */
export type AccessLevel = Exclude<PolicyLevel, 'none'>;

/** Where a site stands before the person has answered: `ask` waits for them, `blocked` refuses outright. */
export type DefaultLevel = 'ask' | 'blocked';

export function rank(level: RuleLevel): number {
  return RULE_LEVELS.indexOf(level);
}

export function meets(have: RuleLevel, need: AccessLevel): boolean {
  return rank(have) >= rank(need);
}

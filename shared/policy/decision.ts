// What an evaluation answers, worded so a model knows what to do next (shared/protocol/policy-error.ts makes the error).
import type { AccessLevel, DefaultLevel, PolicyLevel, RuleLevel } from './levels.js';

export type DenyReason =
  'blind' | 'blocked' | 'below' | 'ask' | 'unsupported_scheme' | 'bad_url' | 'no_page' | 'downloads_off';

/** Where the site stood: a level from the rules or the default, `blind`, or `none` when it is no site at all. */
export type Have = RuleLevel | DefaultLevel | 'blind' | 'none';

export interface Allowed {
  allowed: true;
  /** The level the site holds; `none` when the call touches no page content. */
  level: PolicyLevel;
  site: string;
}

export interface Denied {
  allowed: false;
  reason: DenyReason;
  site: string;
  /** For an http(s) page, its exact origin: what a question about it names and what an answer grants. */
  origin?: string;
  have: Have;
  need: AccessLevel;
  /** The rule that decided, in its canonical spelling; absent when the default or the blind list did. */
  rule?: string;
  /** One line: what happened. */
  message: string;
  /** One line: what the model can do about it. */
  next: string;
}

export type Decision = Allowed | Denied;

export interface Refusal {
  reason: DenyReason;
  site: string;
  origin?: string;
  have: Have;
  need: AccessLevel;
  rule?: string;
  /** For `blind`, the group; for `unsupported_scheme`, why the page has no site. */
  why?: string;
}

const FLAG_FOR: Record<AccessLevel, string> = { read: '--allow', act: '--allow', trusted: '--trust' };

export function deny(refusal: Refusal): Denied {
  const [message, next] = wording(refusal);
  return { allowed: false, ...refusalFacts(refusal), message, next };
}

/** What a refusal states about the site, optional fields only when known: the decision and its error both carry it. */
export function refusalFacts({ reason, site, origin, have, need, rule }: Refusal) {
  return {
    reason,
    site,
    ...(origin === undefined ? {} : { origin }),
    have,
    need,
    ...(rule === undefined ? {} : { rule }),
  };
}

function wording({ reason, site, have, need, rule, why }: Refusal): [string, string] {
  switch (reason) {
    case 'blind':
      return [
        `${site} is ${why ?? 'on the blind list'}: chrome-mcp never reads or acts there, whatever the rules say.`,
        'Do not retry. Tell the person this step is theirs to do.',
      ];
    case 'blocked':
      return [
        `The person's policy blocks ${site} (${rule ? `rule "${rule}"` : 'the default for sites without a rule'}).`,
        'Do not retry on this site. Use another site, or ask the person to change its rule.',
      ];
    case 'below':
      return [
        `${site} is allowed to ${have}${rule ? ` (rule "${rule}")` : ''}; this needs ${need}.`,
        `Use a tool that needs at most ${have}, or ask the person to raise ${site} to ${need} (for one run: ${FLAG_FOR[need]} ${site}).`,
      ];
    case 'ask':
      return [
        `The person has not decided about ${site} yet.`,
        'They are asked to allow it; retry after they answer, and do not try another route to the same site.',
      ];
    case 'unsupported_scheme':
      return [`${site} ${why ?? 'has no site a rule could allow'}.`, 'Navigate to an http(s) page first.'];
    case 'bad_url':
      return [`"${site}" is not a valid URL.`, 'Pass an absolute http(s) URL.'];
    case 'no_page':
      return ['The tab has no page yet: its first document has not loaded.', 'Call `wait_for`, then retry.'];
    case 'downloads_off':
      return ['Downloads are off in the policy.', 'Ask the person to turn downloads on, or read the page instead.'];
  }
}

// The policy check both ends run: a URL (or a whole redirect chain) and the level a call needs, against the policy.
import { blindGroup } from './blind.js';
import { deny, type Decision, type Denied, type Refusal } from './decision.js';
import { meets, type AccessLevel, type PolicyLevel } from './levels.js';
import { patternText } from './pattern.js';
import { standingOf, type Policy } from './policy.js';
import { originOf, siteLabel, siteOf } from './site.js';

/**
 * Judges one URL, which must be the frame's own URL (or its security origin), never the top page's for a child frame.
 * Order: no page needed → bad URL → blind list → schemes without a site → rules and grants → default.
 */
export function evaluatePolicy(url: string, needed: PolicyLevel, policy: Policy): Decision {
  const site = siteOf(url);
  const label = siteLabel(site);
  if (needed === 'none') return { allowed: true, level: 'none', site: label };
  type Extra = Pick<Refusal, 'rule' | 'why' | 'origin'>;
  const refuse = (reason: Denied['reason'], have: Denied['have'], extra: Extra = {}): Denied =>
    deny({ reason, site: label, have, need: needed, ...extra });

  if (site.kind === 'bad') return refuse('bad_url', 'none');
  const group = blindGroup(site, policy.self);
  if (group) return refuse('blind', 'blind', { why: group });
  if (site.kind === 'inherits')
    return refuse('unsupported_scheme', 'none', {
      why: 'takes its origin from the page that made it, so no rule covers it',
    });
  if (site.kind !== 'web' && site.kind !== 'file') return refuse('unsupported_scheme', 'none');

  const standing = standingOf(site, policy);
  const rule = standing.rule ? { rule: patternText(standing.rule.site) } : {};
  // Local files hold whatever is on the disk, so without a `file://` rule they are blocked rather than asked about.
  const level = site.kind === 'file' && !standing.rule ? 'blocked' : standing.level;
  // The question names the exact origin, so an answer grants that origin and no wider site (not every port, scheme or
  // subdomain).
  if (level === 'ask') return refuse('ask', 'ask', site.kind === 'web' ? { origin: originOf(site) } : {});
  if (level === 'blocked') return refuse('blocked', 'blocked', rule);
  if (!meets(level, needed)) return refuse('below', level, rule);
  return { allowed: true, level, site: label };
}

export type ChainDecision = Decision & { hop: number };

/**
 * Judges a navigation: the requested URL and every redirect hop after it, so an open redirect on an allowed site
 * cannot carry the agent off-policy. The first refused hop decides; otherwise the last hop does.
 * about:blank is allowed as a hop: a fresh blank document holds nothing to read yet.
 */
export function evaluateChain(urls: readonly string[], needed: AccessLevel, policy: Policy): ChainDecision {
  let last: ChainDecision = { ...deny({ reason: 'bad_url', site: '', have: 'none', need: needed }), hop: 0 };
  for (const [hop, url] of urls.entries()) {
    const site = siteOf(url);
    const decision: Decision =
      site.kind === 'inherits'
        ? { allowed: true, level: 'none', site: siteLabel(site) }
        : evaluatePolicy(url, needed, policy);
    if (!decision.allowed) return { ...decision, hop };
    last = { ...decision, hop };
  }
  return last;
}

/** Judges a download: off until the person enables downloads, then every hop must be readable. */
export function evaluateDownload(urls: readonly string[], policy: Policy): ChainDecision {
  if (!policy.downloads) {
    return {
      ...deny({ reason: 'downloads_off', site: siteLabel(siteOf(urls[0] ?? '')), have: 'none', need: 'read' }),
      hop: 0,
    };
  }
  return evaluateChain(urls, 'read', policy);
}

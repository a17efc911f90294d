// The declarativeNetRequest session rules of the new-window holds: an act's, from the policy's parsed patterns, blocks a
// new tab's first page unless the policy would let the agent read it there; a script's, unless it is at the tab's own;
// the one standing while a tab is driven, where the policy refuses it.
import { BLIND_SITES } from '../../shared/policy/blind.js';
import { parseSitePattern, specificity, type SitePattern } from '../../shared/policy/pattern.js';
import type { Policy } from '../../shared/policy/policy.js';
import { defaultPort } from '../../shared/policy/site.js';

/** The part of chrome.declarativeNetRequest.Rule these rules use, spelled here so the module runs (and is tested) outside Chrome. */
export interface HoldRule {
  id: number;
  priority: number;
  action: { type: 'block' | 'allow' };
  condition: {
    /** A new tab's first page; a script hold's second pair of rules takes every other request instead. */
    resourceTypes?: ['main_frame'];
    excludedResourceTypes?: ['main_frame'];
    /** Every tab open when the hold began: only a tab opened since is held, never one the person already had. */
    excludedTabIds: number[];
    /** The driven tab's sites: a tab the person opens (no initiator) or another site opens is never held. */
    initiatorDomains: string[];
    regexFilter?: string;
    requestDomains?: string[];
    isUrlFilterCaseSensitive?: false;
  };
}

export interface HoldScope {
  excludedTabIds: number[];
  initiatorDomains: string[];
}

/*
 * Priorities mirror the policy's precedence (policy.ts standingOf): the most specific matching pattern wins, a
 * `blocked` one beats an equally specific allowing one, and the blind list beats every rule. DNR lets the highest
 * priority win and prefers allow to block only at equal priority, so a `blocked` pattern sits one above the allowing
 * ones of its specificity. A plain "allow every pattern at read or above" would let `*.example.com: read` open
 * `bank.example.com` that a `blocked` rule names.
 */
const BASE_PRIORITY = 1;
/*
 * Chrome does not order priorities this high as numbers: measured on Chromium 156, a block at 2^29 lost to an allow at
 * 38 (it packs the priority with the action's rank into 32 bits). A policy pattern's priority stays below 2^11 (a
 * host has at most 127 labels), so these sit well above it and well below 2^24.
 */
const BLIND_PRIORITY = 2 ** 21;
// Above every policy rule, below the blind list: a window an agent's script opens reaches its tab's own origins only.
const SCRIPT_PRIORITY = 2 ** 20;
// Above the script hold's: for the windows they name, these alone decide (popupHoldRules).
const POPUP_PRIORITY = SCRIPT_PRIORITY + 2;
// Above those: for a scripted tab no engine follows, these alone decide (scriptedTabRules).
const SCRIPTED_TAB_PRIORITY = POPUP_PRIORITY + 2;
// chrome.tabs.TAB_ID_NONE, spelled out so the module runs outside Chrome.
const NO_TAB = -1;
const patternPriority = (pattern: SitePattern, blocked: boolean) => 2 + 2 * specificity(pattern) + (blocked ? 1 : 0);

// Every built-in blind site is a plain domain (host and subdomains), which is exactly what requestDomains matches;
// one rule for all of them keeps the hold clear of Chrome's 1,000 regex-rule budget.
const BLIND_DOMAINS = Object.values(BLIND_SITES)
  .flat()
  .map((site) => {
    const pattern = parseSitePattern(site);
    if (pattern.kind !== 'domain') throw new Error(`blind site ${site} is not a plain domain`);
    return pattern.host;
  });

/** The hold's rules, unnumbered: every new tab's first page is blocked unless the policy allows reading it. */
export function holdRules(policy: Policy, scope: HoldScope): Omit<HoldRule, 'id'>[] {
  return policyRules(policy, scope, true);
}

/**
 * The rules that stand while a tab is driven, unnumbered: a new tab's page is blocked where the policy refuses the site
 * (a `blocked` rule, a `blocked` default, the blind list), wherever a site it merely has no rule for stands (`ask`).
 */
export function refusedRules(policy: Policy, scope: HoldScope): Omit<HoldRule, 'id'>[] {
  return policyRules(policy, scope, policy.default === 'blocked');
}

/** The policy's patterns as rules; `blockUnlisted`: a site no pattern allows is blocked too. */
function policyRules(policy: Policy, scope: HoldScope, blockUnlisted: boolean): Omit<HoldRule, 'id'>[] {
  const condition = {
    resourceTypes: ['main_frame'] as ['main_frame'],
    excludedTabIds: scope.excludedTabIds,
    initiatorDomains: scope.initiatorDomains,
  };
  const rules: Omit<HoldRule, 'id'>[] = [];
  const add = (
    priority: number,
    type: 'block' | 'allow',
    match: Pick<HoldRule['condition'], 'regexFilter' | 'requestDomains' | 'isUrlFilterCaseSensitive'>,
  ) => {
    rules.push({ priority, action: { type }, condition: { ...condition, ...match } });
  };
  if (blockUnlisted) add(BASE_PRIORITY, 'block', {});
  const seen = new Set<string>();
  for (const rule of [...policy.rules, ...policy.grants]) {
    const regexFilter = patternRegex(rule.site);
    const blocked = rule.level === 'blocked';
    const key = `${blocked}:${regexFilter}`;
    if (regexFilter === undefined || seen.has(key)) continue;
    seen.add(key);
    add(patternPriority(rule.site, blocked), blocked ? 'block' : 'allow', {
      regexFilter,
      isUrlFilterCaseSensitive: false,
    });
  }
  add(BLIND_PRIORITY, 'block', { requestDomains: BLIND_DOMAINS });
  for (const pattern of policy.self) {
    const regexFilter = patternRegex(pattern);
    if (regexFilter !== undefined) add(BLIND_PRIORITY, 'block', { regexFilter, isUrlFilterCaseSensitive: false });
  }
  return rules;
}

/**
 * The rules of a hold on the windows an agent's script opens: every new tab's first page is blocked unless it is at one
 * of `origins` (the opening tab's own frames', as the egress hold allows), whatever the policy would let the agent read;
 * and so is every other request such a tab makes while the hold stands, as its page may be one the script wrote (a
 * blob window, whose first request is the blob itself): what it sends at once gets no further than the script would.
 * Requests of no tab are the worker hold's (scripted-workers.ts), so they are left out here.
 */
export function scriptHoldRules(scope: HoldScope, origins: readonly string[]): Omit<HoldRule, 'id'>[] {
  const held = { excludedTabIds: scope.excludedTabIds, initiatorDomains: scope.initiatorDomains };
  const pages = { ...held, resourceTypes: ['main_frame'] as ['main_frame'] };
  const sends = {
    ...held,
    excludedTabIds: [NO_TAB, ...scope.excludedTabIds],
    excludedResourceTypes: ['main_frame'] as ['main_frame'],
  };
  const allowed = origins.flatMap((origin) => {
    const regexFilter = originRegex(origin);
    return regexFilter === undefined ? [] : [{ regexFilter, isUrlFilterCaseSensitive: false as const }];
  });
  return [pages, sends].flatMap((condition) => [
    { priority: SCRIPT_PRIORITY, action: { type: 'block' as const }, condition },
    ...allowed.map((match) => ({
      priority: SCRIPT_PRIORITY + 1,
      action: { type: 'allow' as const },
      condition: { ...condition, ...match },
    })),
  ]);
}

/**
 * The rules of a hold on windows an agent's script opened or drove while no engine follows them (a restarted worker, a
 * session that ended): every request of theirs, their pages too, is blocked unless it is at one of `origins` (their
 * opener's, as the engine judged them).
 */
export function popupHoldRules(tabIds: readonly number[], origins: readonly string[]): object[] {
  const held = { tabIds: [...tabIds] };
  const conditions = [
    { ...held, resourceTypes: ['main_frame'] },
    { ...held, excludedResourceTypes: ['main_frame'] },
  ];
  const allowed = origins.flatMap((origin) => originRegex(origin) ?? []);
  return conditions.flatMap((condition) => [
    { priority: POPUP_PRIORITY, action: { type: 'block' }, condition },
    ...allowed.map((regexFilter) => ({
      priority: POPUP_PRIORITY + 1,
      action: { type: 'allow' },
      condition: { ...condition, regexFilter, isUrlFilterCaseSensitive: false },
    })),
  ]);
}

/** A rule popupHoldRules wrote: the next worker takes back those a stopped one left. */
export function isPopupHoldRule(rule: { priority?: number }): boolean {
  return rule.priority === POPUP_PRIORITY || rule.priority === POPUP_PRIORITY + 1;
}

/**
 * The rules of a hold on a tab an agent's script ran in while no engine follows it (a restarted worker, a session that
 * ended): what its pages send outside `origins` (those the script ran at) is blocked, and so is a navigation one of its
 * pages starts there, as the script may (`location = …`); one the person starts from the address bar has no initiator,
 * and goes.
 */
export function scriptedTabRules(tabId: number, origins: readonly string[]): object[] {
  const hosts = origins.flatMap((origin) => (/^https?:\/\//.test(origin) ? [new URL(origin).hostname] : []));
  const conditions = [
    { tabIds: [tabId], excludedResourceTypes: ['main_frame'] },
    ...(hosts.length > 0 ? [{ tabIds: [tabId], resourceTypes: ['main_frame'], initiatorDomains: hosts }] : []),
  ];
  const allowed = origins.flatMap((origin) => originRegex(origin) ?? []);
  return conditions.flatMap((condition) => [
    { priority: SCRIPTED_TAB_PRIORITY, action: { type: 'block' }, condition },
    ...allowed.map((regexFilter) => ({
      priority: SCRIPTED_TAB_PRIORITY + 1,
      action: { type: 'allow' },
      condition: { ...condition, regexFilter, isUrlFilterCaseSensitive: false },
    })),
  ]);
}

/** A rule scriptedTabRules wrote: the next worker takes back those a stopped one left. */
export function isScriptedTabRule(rule: { priority?: number }): boolean {
  return rule.priority === SCRIPTED_TAB_PRIORITY || rule.priority === SCRIPTED_TAB_PRIORITY + 1;
}

/** The regex of exactly one web origin (`http://host:port`); undefined for any other kind of origin. */
export function originRegex(origin: string): string | undefined {
  if (!/^https?:\/\/[^/]+$/.test(origin)) return undefined;
  try {
    return patternRegex(parseSitePattern(origin));
  } catch {
    return undefined;
  }
}

/**
 * An RE2 regex matching exactly the http(s) URLs whose site the pattern covers (pattern.ts patternMatches), as Chrome
 * canonicalises them: lowercase punycode host, default port dropped, userinfo possibly kept. Undefined for `file://`,
 * which no web page can open in a new window.
 */
export function patternRegex(pattern: SitePattern): string | undefined {
  if (pattern.kind === 'file') return undefined;
  const host = escape(pattern.host);
  // A host never holds / ? # @ or :, so a label prefix cannot reach past the host, nor userinfo past the authority.
  const userinfo = '(?:[^/?#]*@)?';
  const end = '(?:[/?#]|$)';
  const ip = pattern.host.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(pattern.host);
  switch (pattern.kind) {
    case 'domain':
      return `^https?://${userinfo}${ip ? '' : '(?:[^/?#@:]*\\.)?'}${host}(?::[0-9]+)?${end}`;
    case 'subdomains':
      return `^https?://${userinfo}[^/?#@:]+\\.${host}(?::[0-9]+)?${end}`;
    case 'host-port':
      return `^(?:${(['http', 'https'] as const).map((scheme) => `${scheme}://${userinfo}${host}${portPart(scheme, pattern.port)}`).join('|')})${end}`;
    case 'origin':
      return `^${pattern.scheme}://${userinfo}${host}${portPart(pattern.scheme, pattern.port)}${end}`;
  }
}

/** Chrome drops a port equal to the scheme's default, so that one is matched by its absence. */
function portPart(scheme: 'http' | 'https', port: number): string {
  return port === defaultPort(scheme) ? '' : `:${port}`;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

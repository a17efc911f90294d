// The live policy: standing rules loaded from and saved to the policy file, this run's grants, and listeners that
// hear every change at once (the core pushes each one to the extension).
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { grantProblem } from '../../../shared/policy/breadth.js';
import { parsePolicyFile } from '../../../shared/policy/file.js';
import { PolicyFormatError } from '../../../shared/policy/format-error.js';
import type { DefaultLevel } from '../../../shared/policy/levels.js';
import { patternText, type SitePattern } from '../../../shared/policy/pattern.js';
import { DEFAULT_POLICY, type Policy, type Rule } from '../../../shared/policy/policy.js';
import type { ToolCap } from '../../../shared/policy/tool-caps.js';
import { ruleToText, rulesFromText, type RuleText } from '../../../shared/policy/transfer.js';
import { writeFileAtomic } from '../pairing/private-files.js';
import { notifyAll } from './notify.js';

export type PolicyChange =
  { kind: 'standing' } | { kind: 'rule'; rule: Rule } | { kind: 'grant'; rule: Rule } | { kind: 'self' };

export type PolicyListener = (policy: Policy, change: PolicyChange) => void;

export interface PolicyStoreOptions {
  /** Where the standing rules persist; it need not exist yet, unless `required`. */
  file: string;
  /** `--policy FILE` named it: a missing file is a mistake to report, not a fresh start. */
  required?: boolean;
  /** --allow / --trust. */
  grants?: readonly Rule[];
  /** chrome-mcp's own UI origins. */
  self?: readonly SitePattern[];
}

export interface StandingEdit {
  rules: readonly RuleText[];
  default: DefaultLevel;
  downloads: boolean;
  /** Absent: the opt-in tool sets stay as they are. */
  tools?: readonly ToolCap[];
}

export class PolicyStore {
  readonly file: string;
  private policy: Policy;
  private readonly listeners = new Set<PolicyListener>();

  /** Throws PolicyFormatError when the file does not parse, or is required and missing: the caller says which file. */
  constructor(options: PolicyStoreOptions) {
    this.file = options.file;
    this.policy = {
      ...loadStanding(options.file, options.required ?? false),
      grants: options.grants ?? [],
      self: options.self ?? [],
    };
  }

  current(): Policy {
    return this.policy;
  }

  onChange(listener: PolicyListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The editor's save: throws PolicyFormatError naming `rules[i]` for a bad pattern, before anything changes. */
  setStanding(edit: StandingEdit): Policy {
    const rules = rulesFromText(edit.rules);
    return this.commit(
      {
        ...this.policy,
        rules,
        default: edit.default,
        downloads: edit.downloads,
        tools: edit.tools ?? this.policy.tools,
      },
      { kind: 'standing' },
      true,
    );
  }

  /** "Allow once" or "deny": this run only. A newer grant for the same site replaces the older one. */
  grant(rule: Rule): Policy {
    refuseTooBroad(rule);
    return this.commit(
      { ...this.policy, grants: [...withoutSite(this.policy.grants, rule), rule] },
      { kind: 'grant', rule },
      false,
    );
  }

  /**
   * "Always": replaces any standing rule for the same site and saves. It also drops this run's grants for that site:
   * a grant outranks a rule of the same site, so an earlier "deny" would otherwise override the person's newer answer.
   */
  addRule(rule: Rule): Policy {
    refuseTooBroad(rule);
    const next = {
      ...this.policy,
      rules: [...withoutSite(this.policy.rules, rule), rule],
      grants: withoutSite(this.policy.grants, rule),
    };
    return this.commit(next, { kind: 'rule', rule }, true);
  }

  /** The core learns its own UI's origin (the control server's port) only after the store exists. */
  setSelf(self: readonly SitePattern[]): Policy {
    return this.commit({ ...this.policy, self }, { kind: 'self' }, false);
  }

  private commit(next: Policy, change: PolicyChange, persist: boolean): Policy {
    // Saved first: a change the disk refused must not be live, or it would vanish at the next start unannounced.
    if (persist) this.save(next);
    this.policy = next;
    notifyAll(this.listeners, next, change);
    return next;
  }

  private save(policy: Policy): void {
    const file = {
      version: 1,
      rules: policy.rules.map(ruleToText),
      default: policy.default,
      downloads: policy.downloads,
      tools: policy.tools,
    };
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    writeFileAtomic(this.file, `${JSON.stringify(file, null, 2)}\n`);
  }
}

function loadStanding(file: string, required: boolean): Pick<Policy, 'rules' | 'default' | 'downloads' | 'tools'> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (required) throw new PolicyFormatError(['the file does not exist']);
    return DEFAULT_POLICY;
  }
  return parsePolicyFile(text);
}

/** The last line for answers: whatever the caller, no grant names a public suffix or a local host without its port. */
function refuseTooBroad(rule: Rule): void {
  const broad = grantProblem(rule.site, rule.level);
  if (broad) throw new PolicyFormatError([broad]);
}

function withoutSite(rules: readonly Rule[], rule: Rule): Rule[] {
  const site = patternText(rule.site);
  return rules.filter((other) => patternText(other.site) !== site);
}

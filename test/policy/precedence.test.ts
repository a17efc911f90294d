// Which rule wins when several match: most specific first, then blocked, then this run's grants, then the lower level.
import { describe, expect, it } from 'vitest';
import { evaluatePolicy } from '../../shared/policy/evaluate.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import type { PolicyLevel } from '../../shared/policy/levels.js';
import { outcome, policy, type RuleSpec } from './support.js';

type Case = readonly [
  name: string,
  rules: readonly RuleSpec[],
  grants: readonly RuleSpec[],
  url: string,
  need: PolicyLevel,
  expected: string,
];

const CASES: readonly Case[] = [
  [
    'a narrower block beats a broader allow',
    [
      ['example.com', 'trusted'],
      ['admin.example.com', 'blocked'],
    ],
    [],
    'https://admin.example.com/',
    'read',
    'blocked',
  ],
  [
    '… at any depth below it',
    [
      ['example.com', 'trusted'],
      ['admin.example.com', 'blocked'],
    ],
    [],
    'https://x.admin.example.com/',
    'read',
    'blocked',
  ],
  [
    '… and leaves its siblings alone',
    [
      ['example.com', 'trusted'],
      ['admin.example.com', 'blocked'],
    ],
    [],
    'https://www.example.com/',
    'act',
    'trusted',
  ],
  [
    'a narrower allow carves a hole in a broader block',
    [
      ['example.com', 'blocked'],
      ['docs.example.com', 'read'],
    ],
    [],
    'https://docs.example.com/',
    'read',
    'read',
  ],
  [
    'a narrower read caps a broader trusted',
    [
      ['example.com', 'trusted'],
      ['mail.example.com', 'read'],
    ],
    [],
    'https://mail.example.com/',
    'act',
    'below',
  ],
  [
    '*.domain beats the bare domain on a subdomain',
    [
      ['example.com', 'read'],
      ['*.example.com', 'act'],
    ],
    [],
    'https://a.example.com/',
    'act',
    'act',
  ],
  [
    '… but not on the domain itself',
    [
      ['example.com', 'read'],
      ['*.example.com', 'act'],
    ],
    [],
    'https://example.com/',
    'act',
    'below',
  ],
  [
    'host:port beats the bare host',
    [
      ['localhost', 'blocked'],
      ['localhost:3000', 'act'],
    ],
    [],
    'http://localhost:3000/',
    'act',
    'act',
  ],
  [
    'an origin beats host:port',
    [
      ['localhost:3000', 'act'],
      ['https://localhost:3000', 'blocked'],
    ],
    [],
    'https://localhost:3000/',
    'read',
    'blocked',
  ],
  [
    '… and only for its scheme',
    [
      ['localhost:3000', 'act'],
      ['https://localhost:3000', 'blocked'],
    ],
    [],
    'http://localhost:3000/',
    'act',
    'act',
  ],
  [
    'blocked wins a tie between spellings of one site',
    [
      ['example.com', 'act'],
      ['EXAMPLE.com.', 'blocked'],
    ],
    [],
    'https://example.com/',
    'read',
    'blocked',
  ],
  [
    'the lower level wins a tie between allows',
    [
      ['example.com', 'act'],
      ['Example.com', 'read'],
    ],
    [],
    'https://example.com/',
    'act',
    'below',
  ],
  [
    'a grant raises a rule of the same site for this run',
    [['example.com', 'read']],
    [['example.com', 'act']],
    'https://example.com/',
    'act',
    'act',
  ],
  [
    'a grant never lifts a block on the same site',
    [['example.com', 'blocked']],
    [['example.com', 'trusted']],
    'https://example.com/',
    'read',
    'blocked',
  ],
  [
    'a broad grant never lifts a narrower block',
    [['admin.example.com', 'blocked']],
    [['example.com', 'trusted']],
    'https://admin.example.com/',
    'read',
    'blocked',
  ],
  [
    'a narrower grant beats a broader block',
    [['example.com', 'blocked']],
    [['docs.example.com', 'read']],
    'https://docs.example.com/',
    'read',
    'read',
  ],
  [
    'a grant can lower a rule for this run',
    [['example.com', 'trusted']],
    [['example.com', 'read']],
    'https://example.com/',
    'act',
    'below',
  ],
  [
    'a blocked grant (a "deny" answer) blocks for this run',
    [['example.com', 'act']],
    [['example.com', 'blocked']],
    'https://example.com/',
    'read',
    'blocked',
  ],
];

describe('precedence', () => {
  it.each(CASES)('%s', (_name, rules, grants, url, need, expected) => {
    expect(outcome(evaluatePolicy(url, need, policy(rules, { grants })))).toBe(expected);
  });

  it('names the rule that decided', () => {
    const decision = evaluatePolicy(
      'https://admin.example.com/',
      'read',
      policy([
        ['example.com', 'trusted'],
        ['admin.example.com', 'blocked'],
      ]),
    );
    expect(decision).toMatchObject({ reason: 'blocked', rule: 'admin.example.com' });
  });

  it('--allow and --trust layer on the file rules with the same precedence', () => {
    const base = policy([
      ['example.com', 'read'],
      ['pay.example.com', 'blocked'],
    ]);
    const run = policyFromFlags({ allow: ['example.com'], trust: ['localhost:3000'] }, base);
    expect(outcome(evaluatePolicy('https://app.example.com/', 'act', run))).toBe('act');
    expect(outcome(evaluatePolicy('https://pay.example.com/', 'read', run))).toBe('blocked');
    expect(outcome(evaluatePolicy('http://localhost:3000/', 'trusted', run))).toBe('trusted');
    expect(run.rules).toEqual(base.rules);
  });
});

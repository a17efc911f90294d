// Property: for generated hosts, a rule for A never allows B unless B is A or a subdomain of A, however B is dressed up.
import { describe, expect, it } from 'vitest';
import { grantProblem } from '../../shared/policy/breadth.js';
import { evaluatePolicy } from '../../shared/policy/evaluate.js';
import { parseSitePattern } from '../../shared/policy/pattern.js';
import { policy } from './support.js';
import { seeded as random } from '../support/seeded-random.js';

const LABELS = ['a', 'b', 'ab', 'ba', 'a-b', 'x1', 'www', 'bank', 'evil', 'com', 'co', 'uk'];
const TLDS = ['com', 'co', 'uk', 'net'];

function host(next: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const depth = 1 + Math.floor(next() * 3);
  return [...Array.from({ length: depth }, () => pick(LABELS)), pick(TLDS)].join('.');
}

/** The same site B, spelled the ways an attacker might try to make it read as A. */
function disguises(a: string, b: string): string[] {
  return [
    `https://${b}/`,
    `http://${b.toUpperCase()}:8080/${a}`,
    `https://${b}./?next=https://${a}/`,
    `https://${a}@${b}/`,
    `https://${a}:pw@${b}/#@${a}`,
    `https:\\\\${b}\\@${a}/`,
    `blob:https://${b}/uuid-${a}`,
  ];
}

const isSameOrSubdomain = (b: string, a: string): boolean => b === a || b.endsWith(`.${a}`);

describe('a rule for A covers exactly A and its subdomains', () => {
  it('holds for 3,000 generated pairs and every disguise of B', () => {
    const next = random(0xc0ffee);
    let covered = 0;
    for (let i = 0; i < 3000; i++) {
      const a = host(next);
      // `co.uk` and the like are public suffixes: no rule may allow them (breadth.test.ts), so none is tried here.
      if (grantProblem(parseSitePattern(a), 'act')) continue;
      const b = next() < 0.3 ? `${host(next).split('.')[0]}.${a}` : host(next);
      const rules = policy([[a, 'act']]);
      const starred = policy([[`*.${a}`, 'act']]);
      for (const url of disguises(a, b)) {
        const allowed = evaluatePolicy(url, 'act', rules).allowed;
        expect(allowed, `${a} vs ${url}`).toBe(isSameOrSubdomain(b, a));
        expect(evaluatePolicy(url, 'act', starred).allowed, `*.${a} vs ${url}`).toBe(b.endsWith(`.${a}`));
        if (allowed) covered++;
      }
    }
    // The generator must produce both outcomes, or the property proves nothing.
    expect(covered).toBeGreaterThan(1000);
  });
});

// The policy tests that drive pages run under: the test's own loopback servers granted by their ports (scripts
// included), every other site `ask`. A grant names its port, as the policy demands of every local host (breadth.ts),
// so the grants follow the servers the test file has started: each server registers its port when it listens.
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { parseRule } from '../../shared/policy/breadth.js';
import type { RuleLevel } from '../../shared/policy/levels.js';
import { DEFAULT_POLICY, type Policy, type Rule } from '../../shared/policy/policy.js';

const ports = new Set<number>();

/** Called by the test servers (fixture-server, gate-site) once they listen: both of their host names get a grant. */
export function registerTestServerPort(port: number): void {
  ports.add(port);
}

/** The fixture server's two sites: `127.0.0.1` is the main one, `localhost` the cross-origin one. */
export type TestHost = '127.0.0.1' | 'localhost';
const BOTH: readonly TestHost[] = ['127.0.0.1', 'localhost'];

/** `HOST:PORT` for every registered server and each of `names`, as --allow / --trust take them. */
export function testServerHosts(names: readonly TestHost[] = BOTH): string[] {
  return [...ports].flatMap((port) => names.map((name) => `${name}:${port}`));
}

const cache = new Map<string, { key: string; grants: Rule[] }>();

function grantsAt(level: RuleLevel, names: readonly TestHost[]): Rule[] {
  const hosts = testServerHosts(names);
  const key = hosts.join(',');
  const slot = `${level} ${names.join(',')}`;
  const cached = cache.get(slot);
  if (cached?.key === key) return cached.grants;
  const grants = hosts.map((host) => parseRule(host, level));
  cache.set(slot, { key, grants });
  return grants;
}

/** A policy granting the test's servers `level`, read live: a server started after this call is covered too. */
export function testServerPolicy(level: RuleLevel, names: readonly TestHost[] = BOTH): Policy {
  return {
    ...DEFAULT_POLICY,
    get grants() {
      return grantsAt(level, names);
    },
  };
}

/** The flags granting the test's servers to a spawned `chrome-mcp`; call it after the servers have started. */
export function testServerFlags(level: 'act' | 'trusted', names: readonly TestHost[] = BOTH): string[] {
  const hosts = testServerHosts(names);
  return hosts.length ? [level === 'act' ? '--allow' : '--trust', hosts.join(',')] : [];
}

export const TEST_POLICY = testServerPolicy('trusted');

/** The engine's gate under TEST_POLICY, for tests that build a PageContext themselves. */
export const TEST_GATE = new PolicyGate(() => TEST_POLICY);

/** The same grant for a spawned `chrome-mcp`, read each time it is spread (`...TEST_POLICY_FLAGS`). */
export const TEST_POLICY_FLAGS: Iterable<string> = {
  *[Symbol.iterator]() {
    yield* testServerFlags('trusted');
  },
};

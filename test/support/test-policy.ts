// The policy tests that drive pages run under: both fixture hosts trusted (scripts included), every other site `ask`.
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { policyFromFlags } from '../../shared/policy/flags.js';

export const TEST_POLICY = policyFromFlags({ allow: [], trust: ['127.0.0.1', 'localhost'] });

/** The engine's gate under TEST_POLICY, for tests that build a PageContext themselves. */
export const TEST_GATE = new PolicyGate(() => TEST_POLICY);

/** The same grant for a spawned `chrome-mcp`: both fixture hosts trusted for the run, every other site asked about. */
export const TEST_POLICY_FLAGS = ['--trust', '127.0.0.1,localhost'] as const;

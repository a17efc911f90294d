// How a policy refusal reaches the model: the protocol's error, with the policy's wording. Here, not in shared/policy,
// because the wire carries policies (wire.ts imports shared/policy), so the policy must not import the protocol back.
import { refusalFacts, type Denied } from '../policy/decision.js';
import { ToolError } from './errors.js';

/** The error a tool returns for a refusal: the person is being asked (`ask`), or the policy said no. */
export function policyError(denied: Denied): ToolError {
  const code = denied.reason === 'ask' ? 'DOMAIN_CONFIRMATION_REQUIRED' : 'POLICY_DENIED';
  return new ToolError(code, denied.message, { next: denied.next, data: refusalFacts(denied) });
}

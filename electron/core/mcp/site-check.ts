// The core's end of the site policy: the URLs a call names, judged before it is sent to any backend.
import { withScheme } from '../../../shared/engine/ops/navigate.js';
import { policyError } from '../../../shared/protocol/policy-error.js';
import { evaluatePolicy } from '../../../shared/policy/evaluate.js';
import type { Policy } from '../../../shared/policy/policy.js';
import type { ToolDefinition } from '../../../shared/tools/define.js';

/**
 * Throws the policy's refusal for the first URL the call would load (navigate, tab_new, tab_use, and each such step of
 * a batch): the backend would refuse it too, but a refused site should not even cost a trip to the browser.
 */
export function refuseUrlsOffPolicy(tool: ToolDefinition, args: Record<string, unknown>, policy: Policy): void {
  for (const url of urlsOf(tool.name, args)) {
    const decision = evaluatePolicy(withScheme(url), 'read', policy);
    if (!decision.allowed) throw policyError(decision);
  }
}

function urlsOf(name: string, args: Record<string, unknown>): string[] {
  if (name === 'batch') {
    const steps = Array.isArray(args['steps']) ? (args['steps'] as { tool?: unknown; args?: Record<string, unknown> }[]) : [];
    return steps.flatMap((step) => (typeof step.tool === 'string' && step.args ? urlsOf(step.tool, step.args) : []));
  }
  const loads = name === 'navigate' || name === 'tab_new' || name === 'tab_use';
  return loads && typeof args['url'] === 'string' ? [args['url']] : [];
}

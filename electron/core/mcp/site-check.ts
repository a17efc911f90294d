// The core's end of the site policy: the URLs a call names, judged before it is sent to any backend.
import { withScheme } from '../../../shared/engine/ops/navigate.js';
import { policyError } from '../../../shared/protocol/policy-error.js';
import { evaluatePolicy } from '../../../shared/policy/evaluate.js';
import type { Policy } from '../../../shared/policy/policy.js';
import { toolByName } from '../../../shared/tools/catalog.js';
import type { ToolDefinition } from '../../../shared/tools/define.js';

/**
 * Throws the policy's refusal for the first URL the call would load (a tool whose `loadsUrl` trait says its `url` is a
 * page it loads, and each such step of a batch): the backend would refuse it too, but a refused site should not even
 * cost a trip to the browser.
 */
export function refuseUrlsOffPolicy(tool: ToolDefinition, args: Record<string, unknown>, policy: Policy): void {
  for (const url of urlsOf(tool, args)) {
    const decision = evaluatePolicy(withScheme(url), 'read', policy);
    if (!decision.allowed) throw policyError(decision);
  }
}

function urlsOf(tool: ToolDefinition, args: Record<string, unknown>): string[] {
  if (tool.runsSteps) {
    // Steps are still unparsed here (the batch parses them before any runs); an unknown step tool loads nothing.
    const steps = Array.isArray(args['steps'])
      ? (args['steps'] as { tool?: unknown; args?: Record<string, unknown> }[])
      : [];
    return steps.flatMap((step) => {
      const inner = typeof step.tool === 'string' ? toolByName(step.tool) : undefined;
      return inner && step.args ? urlsOf(inner, step.args) : [];
    });
  }
  return tool.loadsUrl && typeof args['url'] === 'string' ? [args['url']] : [];
}

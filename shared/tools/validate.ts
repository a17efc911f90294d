// Parses a tool call's arguments with the tool's strict schema; BAD_ARGS names each bad argument and what the tool takes.
import type { z } from 'zod';
import { ToolError } from '../protocol/errors.js';
import type { ToolDefinition } from './define.js';

const MAX_ISSUES = 3;

function describe(issue: z.core.$ZodIssue): string {
  const where = issue.path.map(String).join('.');
  const what =
    issue.code === 'unrecognized_keys'
      ? `unknown argument${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`
      : issue.message.replace(/^Invalid input: /, '');
  return where ? `${where}: ${what}` : what;
}

function badArgs(tool: ToolDefinition, error: z.ZodError): ToolError {
  const issues = error.issues.slice(0, MAX_ISSUES).map(describe);
  const allowed = Object.keys(tool.input.shape);
  const unknownAtTop = error.issues.some((issue) => issue.code === 'unrecognized_keys' && issue.path.length === 0);
  const next = unknownAtTop
    ? allowed.length
      ? `${tool.name} takes only: ${allowed.join(', ')}.`
      : `${tool.name} takes no arguments.`
    : `Fix ${issues.length > 1 ? 'those arguments' : 'that argument'} and call ${tool.name} again.`;
  return new ToolError('BAD_ARGS', `${tool.name}: ${issues.join('; ')}`, { next });
}

/** The arguments as the tool's schema reads them; throws BAD_ARGS on anything it rejects. */
export function parseToolArgs(tool: ToolDefinition, raw: unknown): Record<string, unknown> {
  const parsed = tool.input.safeParse(raw);
  if (!parsed.success) throw badArgs(tool, parsed.error);
  return parsed.data;
}

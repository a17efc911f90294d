// The policy file (`--policy FILE`, docs/policy.md): JSON decoded with zod into a Policy, with errors that say where.
import { z } from 'zod';
import { grantProblem } from './breadth.js';
import { PolicyFormatError } from './format-error.js';
import { RULE_LEVELS } from './levels.js';
import { parseSitePattern } from './pattern.js';
import { DEFAULT_POLICY, type Policy } from './policy.js';
import { TOOL_CAPS } from './tool-caps.js';

const sitePattern = z.string().transform((text, ctx) => {
  try {
    return parseSitePattern(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: error instanceof PolicyFormatError ? error.message : String(error) });
    return z.NEVER;
  }
});

// A rule too broad for its level refuses the whole file rather than being skipped: the person sees which rule to fix,
// and the file is never rewritten without it.
const rule = z.strictObject({ site: sitePattern, level: z.enum(RULE_LEVELS) }).superRefine(({ site, level }, ctx) => {
  const problem = grantProblem(site, level);
  if (problem) ctx.addIssue({ code: 'custom', path: ['site'], message: problem });
});

export const PolicyFileSchema = z.strictObject({
  version: z.literal(1),
  rules: z.array(rule).default([]),
  default: z.enum(['ask', 'blocked']).default(DEFAULT_POLICY.default),
  downloads: z.boolean().default(DEFAULT_POLICY.downloads),
  tools: toolSets().default([]),
});

/** Opt-in tool sets, each named once. */
export function toolSets() {
  return z
    .array(z.enum(TOOL_CAPS))
    .max(TOOL_CAPS.length)
    .refine((sets) => new Set(sets).size === sets.length, 'names a tool set twice');
}

/** Parses a policy file's text; throws PolicyFormatError listing every problem by line or field. */
export function parsePolicyFile(text: string): Policy {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new PolicyFormatError([
      `${syntaxPlace(text, error)}not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    ]);
  }
  const parsed = PolicyFileSchema.safeParse(json);
  if (!parsed.success)
    throw new PolicyFormatError(parsed.error.issues.map((issue) => `${fieldPath(issue.path)}: ${issue.message}`));
  const { version: _version, ...settings } = parsed.data;
  return { ...DEFAULT_POLICY, ...settings };
}

function fieldPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'the file';
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i ? '.' : ''}${String(key)}`)).join('');
}

// V8 names a character offset in most JSON errors; turned into line and column, it points at the typo in an editor.
function syntaxPlace(text: string, error: unknown): string {
  const offset = /at position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
  if (offset === undefined) return '';
  const before = text.slice(0, Number(offset));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `line ${line}, column ${column}: `;
}

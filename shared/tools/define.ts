// The shape of a catalog entry: declared once, from which MCP registration, the README table and policy gates derive.
import type { z } from 'zod';
import type { PolicyLevel } from '../policy/levels.js';
import type { Operation } from '../protocol/operations.js';

/** Operations the core answers itself, never a backend: they concern the core and the person, not a page. */
export const CORE_OPERATIONS = ['status', 'plan', 'ask'] as const;
export type CoreOperation = (typeof CORE_OPERATIONS)[number];

export function isCoreOperation(op: string): op is CoreOperation {
  return (CORE_OPERATIONS as readonly string[]).includes(op);
}

export type ToolCategory = 'session' | 'tabs' | 'navigation' | 'read' | 'act' | 'scripts';

export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  category: ToolCategory;
  description: string;
  input: z.ZodObject<Shape>;
  readOnly: boolean;
  destructive: boolean;
  policy: PolicyLevel;
  /** The executor operation behind it, or one the core answers itself. */
  op: Operation | CoreOperation;
}

export function defineTool<Shape extends z.ZodRawShape>(definition: ToolDefinition<Shape>): ToolDefinition<Shape> {
  return definition;
}

// The shape of a catalog entry: declared once, from which MCP registration, the README table and policy gates derive.
import type { z } from 'zod';
import type { Operation } from '../protocol/operations.js';

export type ToolCategory = 'session' | 'tabs' | 'navigation' | 'read' | 'act' | 'scripts';

/** Policy level a tool needs on the page's site: none (no page), read, act, or trusted (runs scripts). */
export type PolicyLevel = 'none' | 'read' | 'act' | 'trusted';

export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  category: ToolCategory;
  description: string;
  input: z.ZodObject<Shape>;
  readOnly: boolean;
  destructive: boolean;
  policy: PolicyLevel;
  /** The executor operation behind it; `status` is answered by the core itself. */
  op: Operation | 'status';
}

export function defineTool<Shape extends z.ZodRawShape>(definition: ToolDefinition<Shape>): ToolDefinition<Shape> {
  return definition;
}

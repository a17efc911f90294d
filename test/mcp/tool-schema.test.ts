// The published input schema: noise removed, meaning kept, argument names never mistaken for schema keywords.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolInputSchema } from '../../electron/core/mcp/tool-schema.js';

describe('toolInputSchema', () => {
  it('drops $schema, closed-object markers, size bounds and types implied by enums; keeps types, enums and required', () => {
    const input = z.strictObject({
      steps: z
        .array(z.strictObject({ tool: z.string(), args: z.record(z.string(), z.unknown()).optional() }))
        .min(1)
        .max(50),
      mode: z.enum(['insert', 'verbatim']).optional(),
      frame: z.union([z.number(), z.string()]).optional(),
    });
    expect(toolInputSchema(input)).toEqual({
      type: 'object',
      properties: {
        steps: {
          type: 'array',
          items: {
            type: 'object',
            properties: { tool: { type: 'string' }, args: { type: 'object' } },
            required: ['tool'],
          },
        },
        mode: { enum: ['insert', 'verbatim'] },
        frame: { type: ['number', 'string'] },
      },
      required: ['steps'],
    });
  });

  it('keeps arguments whose names are schema keywords', () => {
    const input = z.strictObject({ additionalProperties: z.boolean(), $schema: z.string().optional() });
    expect(Object.keys(toolInputSchema(input).properties ?? {})).toEqual(['additionalProperties', '$schema']);
  });
});

// The JSON Schema tools/list publishes for a catalog tool: zod's output minus what costs bytes and tells the model nothing.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

// Values under these keys are data, not schemas: they are copied as they are.
const LITERALS = new Set(['enum', 'const', 'default', 'examples', 'required']);

// Size bounds the dispatcher enforces (and names when it rejects a call): listing them tells the model nothing useful.
const BOUNDS = new Set(['maxLength', 'minItems', 'maxItems']);

// Why each key can go: `$schema` repeats per tool; strictness and bounds are enforced by the dispatcher (which names
// the allowed arguments when it rejects one); an empty `additionalProperties` and string `propertyNames` are JSON
// defaults; `type: string` beside an `enum` of strings says nothing the enum does not.
function isNoise(key: string, value: Json, parent: JsonObject): boolean {
  if (key === '$schema' || BOUNDS.has(key)) return true;
  if (
    key === 'type' &&
    value === 'string' &&
    Array.isArray(parent['enum']) &&
    parent['enum'].every((item) => typeof item === 'string')
  )
    return true;
  if (key === 'additionalProperties') return value === false || (isObject(value) && Object.keys(value).length === 0);
  if (key === 'propertyNames') return isObject(value) && Object.keys(value).length === 1 && value['type'] === 'string';
  // An object of any shape (a report's part passed through): no properties to list.
  if (key === 'properties') return isObject(value) && Object.keys(value).length === 0;
  return false;
}

/** `anyOf` of bare types (`{type: 'object'}` or null) is the shorter `type: [...]`, which means the same. */
function bareTypes(value: Json): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const types = value.map((member) =>
    isObject(member) && Object.keys(member).length === 1 && typeof member['type'] === 'string'
      ? member['type']
      : undefined,
  );
  return types.every((type) => type !== undefined) ? types : undefined;
}

function isObject(value: Json): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function compact(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(compact);
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(schema)) {
    if (isNoise(key, child, schema)) continue;
    const types = key === 'anyOf' ? bareTypes(compact(child)) : undefined;
    if (types) out['type'] = types;
    else if (LITERALS.has(key)) out[key] = child;
    // Keys of `properties` are argument names, whatever they spell; only their schemas are compacted.
    else if (key === 'properties' && isObject(child))
      out[key] = Object.fromEntries(Object.entries(child).map(([name, sub]) => [name, compact(sub)]));
    else out[key] = compact(child);
  }
  return out;
}

// Draft-07 is what the SDK itself emits for zod 4, so clients see the dialect they already accept. zod renders an
// object schema as {type: 'object', properties, required}: the shape MCP asks for, for arguments and results alike.
export function toolInputSchema(input: z.ZodObject): Tool['inputSchema'] {
  return compact(z.toJSONSchema(input, { io: 'input', target: 'draft-7' }) as JsonObject) as Tool['inputSchema'];
}

/** What a successful call's structuredContent holds: the catalog's output shape, as the client will check it. */
export function toolOutputSchema(output: z.ZodObject): NonNullable<Tool['outputSchema']> {
  return compact(z.toJSONSchema(output, { io: 'output', target: 'draft-7' }) as JsonObject) as NonNullable<
    Tool['outputSchema']
  >;
}

// Operation results and errors → MCP tool results: terse text, an image block for screenshots, and for a tool that
// declares an output shape, its data as structuredContent; an error's data under _meta.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { ToolError } from '../../../shared/protocol/errors.js';
import type { OperationResult } from '../../../shared/protocol/operations.js';
import { redactText } from '../../../shared/redact/text.js';
import { redactValue } from '../../../shared/redact/value.js';

/**
 * `output`: the tool's declared shape. Its data goes out parsed by it, so only the declared fields reach the client
 * (a held card's internals stay with the core); a tool that declares none answers in text only, which is what the
 * model reads anyway and pays for once.
 */
export function toCallResult(result: OperationResult, output?: z.ZodObject): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: result.text }];
  if (result.image) content.push({ type: 'image', data: result.image.data, mimeType: result.image.mimeType });
  if (!output) return { content };
  const parsed = output.safeParse(result.data ?? {});
  // Our bug, not the model's: the client would refuse a result that breaks the schema we published.
  if (!parsed.success)
    throw new ToolError('INTERNAL', `the result did not match its output schema: ${parsed.error.message}`);
  return { content, structuredContent: parsed.data as Record<string, unknown> };
}

/**
 * Where an error's data goes: `_meta`, never structuredContent. The SDK's client checks any structuredContent against
 * the tool's success schema, errors too (typescript-sdk #1943), so error data there would turn a clear refusal into a
 * protocol error in every client that listed the tools first.
 */
export const ERROR_META = 'chrome-mcp/error';

/** `CODE: cause` then `Next: step`; the step line is dropped when it would only repeat the cause. */
export function toErrorResult(error: ToolError): CallToolResult {
  const text =
    error.next === error.message
      ? `${error.code}: ${error.message}`
      : `${error.code}: ${error.message}\nNext: ${error.next}`;
  const result: CallToolResult = { isError: true, content: [{ type: 'text', text }] };
  if (error.data) result._meta = { [ERROR_META]: { code: error.code, ...error.data } };
  return result;
}

/** Every text block and the structured data, redacted: the last stop before the model. Images are not text and pass. */
export function redactCallResult(result: CallToolResult): CallToolResult {
  const content = result.content.map((block) =>
    block.type === 'text' ? { ...block, text: redactText(block.text) } : block,
  );
  const redacted: CallToolResult = { ...result, content };
  if (result.structuredContent) redacted.structuredContent = redactValue(result.structuredContent);
  if (result._meta) redacted._meta = redactValue(result._meta);
  return redacted;
}

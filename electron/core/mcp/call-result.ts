// Operation results and errors → MCP tool results: terse text, an image block for screenshots, data as structuredContent.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolError } from '../../../shared/protocol/errors.js';
import type { OperationResult } from '../../../shared/protocol/operations.js';
import { redactText } from '../../../shared/redact/text.js';
import { redactValue } from '../../../shared/redact/value.js';

export function toCallResult(result: OperationResult): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: result.text }];
  if (result.image) content.push({ type: 'image', data: result.image.data, mimeType: result.image.mimeType });
  return result.data ? { content, structuredContent: result.data } : { content };
}

/** `CODE: cause` then `Next: step`; the step line is dropped when it would only repeat the cause. */
export function toErrorResult(error: ToolError): CallToolResult {
  const text =
    error.next === error.message
      ? `${error.code}: ${error.message}`
      : `${error.code}: ${error.message}\nNext: ${error.next}`;
  const result: CallToolResult = { isError: true, content: [{ type: 'text', text }] };
  if (error.data) result.structuredContent = { code: error.code, ...error.data };
  return result;
}

/** Every text block and the structured data, redacted: the last stop before the model. Images are not text and pass. */
export function redactCallResult(result: CallToolResult): CallToolResult {
  const content = result.content.map((block) =>
    block.type === 'text' ? { ...block, text: redactText(block.text) } : block,
  );
  const redacted: CallToolResult = { ...result, content };
  if (result.structuredContent) redacted.structuredContent = redactValue(result.structuredContent);
  return redacted;
}

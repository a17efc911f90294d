// Reads a tools/call result: its text blocks, the way a model sees them, and its data (an error's under _meta).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

export type CallResult = Awaited<ReturnType<Client['callTool']>>;

export function textOf(result: CallResult): string {
  // The SDK's type also admits the pre-2024 `toolResult` shape, which this server never sends.
  if (!Array.isArray(result.content)) return '';
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

/** A success's structuredContent, or an error's data (electron/core/mcp/call-result.ts ERROR_META says why apart). */
export function dataOf(result: CallResult): Record<string, unknown> | undefined {
  if (result.isError) return result._meta?.['chrome-mcp/error'] as Record<string, unknown> | undefined;
  return result.structuredContent as Record<string, unknown> | undefined;
}

// Reads the text blocks of a tools/call result, the way a model sees them.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

export type CallResult = Awaited<ReturnType<Client['callTool']>>;

export function textOf(result: CallResult): string {
  // The SDK's type also admits the pre-2024 `toolResult` shape, which this server never sends.
  if (!Array.isArray(result.content)) return '';
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

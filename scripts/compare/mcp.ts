// One MCP server on stdio behind the SDK's client, every call timed, counted and capped at 30 s, so a wedged call is a
// failure of its scenario rather than a hung run.
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const CALL_MS = 30_000;

export interface Spawn {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
}

export interface Answer {
  text: string;
  isError: boolean;
  data: Record<string, unknown> | undefined;
}

/** A tool error or a timeout, naming the call and what came back: the failure a report quotes. */
export class CallFailed extends Error {}

export interface Session {
  /** Calls a tool; a tool error or timeout throws CallFailed. */
  call(name: string, args?: Record<string, unknown>): Promise<Answer>;
  /** Characters of every result's text so far. */
  chars: number;
  calls: number;
  close(): Promise<void>;
}

const brief = (value: unknown, max = 300) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
};

export async function openSession(spawn: Spawn): Promise<Session> {
  const transport = new StdioClientTransport({ ...spawn, stderr: 'ignore' });
  const client = new Client({ name: 'compare', version: '1' });
  await client.connect(transport, { timeout: 60_000 });
  const session: Session = {
    chars: 0,
    calls: 0,
    async call(name, args = {}) {
      session.calls++;
      const start = performance.now();
      let result;
      try {
        result = await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_MS });
      } catch (error) {
        const ms = Math.round(performance.now() - start);
        throw new CallFailed(`${name} ${brief(args)} → no answer after ${ms} ms (${(error as Error).message})`);
      }
      const parts = Array.isArray(result.content) ? result.content : [];
      const text = parts.map((part) => (part.type === 'text' ? String(part.text) : `[${part.type}]`)).join('\n');
      const data = result.structuredContent as Record<string, unknown> | undefined;
      // What the model reads: the text parts (structuredContent repeats them for programs).
      session.chars += text.length;
      if (result.isError) throw new CallFailed(`${name} ${brief(args)} → error: ${brief(text, 600)}`);
      return { text, isError: false, data };
    },
    close: () => client.close(),
  };
  return session;
}

// tools/list and the opt-in categories through a real SDK Client: the default set's size on the wire, each tool's
// published shape, and a tool that is off refused by name.
import { afterEach, describe, expect, it } from 'vitest';
import { AgentRegistry } from '../../electron/core/mcp/agent-registry.js';
import { CATALOG } from '../../shared/tools/catalog.js';
import { type ToolDefinition } from '../../shared/tools/define.js';
import { TOOL_CAPS } from '../../shared/policy/tool-caps.js';
import { textOf } from '../support/tool-result.js';
import { closeServers, connect, IDLE, inputs } from './support/scripted-server.js';

const LISTED: readonly ToolDefinition[] = CATALOG;

afterEach(closeServers);

describe('tools/list', () => {
  it('lists the default set in at most 10 KiB on the wire', async () => {
    const { client, sent } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(LISTED.filter((tool) => !tool.cap).map((tool) => tool.name));
    const response = sent.find((message) => 'result' in message && 'tools' in message.result);
    const bytes = Buffer.byteLength(JSON.stringify(response));
    console.log(`tools/list: ${bytes} bytes for ${tools.length} tools`);
    expect(bytes).toBeLessThanOrEqual(10_240);
  });

  it("publishes each tool's own arguments and annotations, without schema noise", async () => {
    const { client } = await connect({}, inputs(IDLE), new AgentRegistry(), TOOL_CAPS);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(CATALOG.length);
    for (const definition of LISTED) {
      const listed = tools.find((tool) => tool.name === definition.name)!;
      expect(listed.title).toBe(definition.title);
      expect(listed.description).toBe(definition.description);
      expect(Object.keys(listed.inputSchema.properties ?? {})).toEqual(Object.keys(definition.input.shape));
      expect(Object.keys(listed.outputSchema?.properties ?? {})).toEqual(Object.keys(definition.output?.shape ?? {}));
      expect(listed.annotations?.readOnlyHint ?? false).toBe(definition.readOnly);
      if (!definition.readOnly) expect(listed.annotations?.destructiveHint).toBe(definition.destructive);
      expect(JSON.stringify(listed)).not.toMatch(/\$schema|"additionalProperties":false|"properties":\{\}/);
    }
    // readOnlyHint defaults to false, so a tool that writes only says whether it destroys.
    expect(tools.find((tool) => tool.name === 'tab_close')?.annotations).toEqual({ destructiveHint: true });
    expect(tools.find((tool) => tool.name === 'type')?.inputSchema.required).toEqual(['text']);
  });
});

describe('opt-in capabilities', () => {
  it('lists a capability its session switched on, and refuses a tool that is off by name with TOOL_OFF', async () => {
    const off = await connect();
    expect((await off.client.listTools()).tools.map((tool) => tool.name)).not.toContain('get_html');
    const refused = await off.client.callTool({ name: 'get_html', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(
      'TOOL_OFF: get_html is in the opt-in "extra" tools, which are off.\n' +
        'Next: Ask the person to switch on the "extra" tools in chrome-mcp\'s Allowed sites screen (or start it with --caps extra), or do without get_html.',
    );
    expect(off.executor.calls).toEqual([]);

    const on = await connect({ get_html: async () => ({ text: '<p>hi</p>' }) }, inputs(IDLE), new AgentRegistry(), [
      'extra',
    ]);
    expect((await on.client.listTools()).tools.map((tool) => tool.name)).toContain('get_html');
    expect(textOf(await on.client.callTool({ name: 'get_html', arguments: {} }))).toBe('<p>hi</p>');
  });

  it('refuses a batch whose step is a tool that is off, before running any step', async () => {
    const { client, executor } = await connect({}, inputs(IDLE), new AgentRegistry(), ['extra']);
    const steps = [{ tool: 'snapshot' }, { tool: 'download', args: { url: 'https://example.com/a.pdf' } }];
    const refused = await client.callTool({ name: 'batch', arguments: { steps } });
    expect(textOf(refused)).toMatch(/^TOOL_OFF: download is in the opt-in "files" tools/);
    expect(executor.calls).toEqual([]);
  });
});

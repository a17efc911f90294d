// The MCP server: every catalog tool registered once, each call routed through the one dispatch wrapper.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type Tool, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { cleanClientName } from '../../../shared/control/mcp-clients.js';
import { CATALOG } from '../../../shared/tools/catalog.js';
import type { ToolDefinition } from '../../../shared/tools/define.js';
import type { Core } from '../core.js';
import type { Log } from '../log.js';
import { VERSION } from '../version.js';
import { createDispatch, type DispatchDeps } from './dispatch.js';
import { mcpElicitor } from './elicit.js';
import { newVoiceMark, voiceInstructions } from './person-voice.js';
import { toolInputSchema } from './tool-schema.js';

export type ServerDeps = DispatchDeps;

/** What a session's server takes from the core: one place, for stdio and the core socket alike. */
export type ServedCore = Pick<Core, 'executor' | 'status' | 'control' | 'agents' | 'files'>;

export function serverDeps(core: ServedCore, log: Log): ServerDeps {
  return {
    executor: core.executor,
    status: core.status,
    control: core.control,
    agents: core.agents,
    log,
    downloads: core.files.downloads,
  };
}

// The SDK would reject bad arguments in its own words before our wrapper runs, so it gets a schema that lets
// everything through; the dispatcher validates against the catalog's strict schema and answers BAD_ARGS.
const PASS_THROUGH = z.looseObject({});

function annotationsOf(tool: ToolDefinition): ToolAnnotations {
  // destructiveHint only means something when readOnlyHint is false (MCP spec), so read-only tools skip it.
  return tool.readOnly ? { readOnlyHint: true } : { readOnlyHint: false, destructiveHint: tool.destructive };
}

/** `agent`: the session's id, opened in `deps.agents` by whoever serves it, and closed when it ends. */
export function buildServer(deps: ServerDeps, agent: string): McpServer {
  // Per session: what one client's model learns of it says nothing about another's.
  const voiceMark = newVoiceMark();
  const instructions = voiceInstructions(voiceMark);
  const server = new McpServer({ name: 'chrome-mcp', version: VERSION }, { instructions });
  const clientName = (): string | undefined => server.server.getClientVersion()?.name;
  // The person's panel and tray list the session from here on, under the name its client gave.
  server.server.oninitialized = () => deps.agents.introduce(agent, clientName());
  const dispatch = createDispatch(deps, {
    client: () => cleanClientName(clientName()),
    elicitor: mcpElicitor(server.server),
    agent,
    voiceMark,
  });
  const entries = CATALOG.map((definition) => {
    const registered = server.registerTool(
      definition.name,
      { description: definition.description, inputSchema: PASS_THROUGH, annotations: annotationsOf(definition) },
      (args, extra) => dispatch(definition, args, extra),
    );
    let inputSchema: Tool['inputSchema'] | undefined;
    const list = (): Tool => {
      inputSchema ??= toolInputSchema(definition.input);
      return {
        name: definition.name,
        description: registered.description,
        inputSchema,
        annotations: registered.annotations,
      };
    };
    return { registered, list };
  });
  // Our own tools/list: the SDK's would publish the pass-through schema. This one publishes the catalog's,
  // compacted, because the model pays for these bytes on every turn; enable/disable still apply.
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: entries.filter(({ registered }) => registered.enabled).map(({ list }) => list()),
  }));
  return server;
}

// The MCP server: every catalog tool registered once, each call routed through the one dispatch wrapper.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type Tool, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { cleanClientName } from '../../../shared/control/mcp-clients.js';
import { CATALOG, toolByName } from '../../../shared/tools/catalog.js';
import { ToolError } from '../../../shared/protocol/errors.js';
import type { ToolDefinition } from '../../../shared/tools/define.js';
import type { ToolCap } from '../../../shared/policy/tool-caps.js';
import type { Core } from '../core.js';
import type { Log } from '../log.js';
import { VERSION } from '../version.js';
import { createDispatch, type DispatchDeps } from './dispatch.js';
import { mcpElicitor } from './elicit.js';
import { newVoiceMark, voiceInstructions } from './person-voice.js';
import { toErrorResult } from './call-result.js';
import { toolInputSchema, toolOutputSchema } from './tool-schema.js';

/**
 * `caps`: the opt-in tool capabilities the core lists in every session (none: the default set). `warm`: told once the
 * session's tools are listed, after the answer left, so the core can get ready for the calls that follow.
 */
export type ServerDeps = DispatchDeps & { caps?: readonly ToolCap[]; warm?: () => void };

/** What a session's server takes from the core: one place, for stdio and the core socket alike. */
export type ServedCore = Pick<Core, 'executor' | 'status' | 'control' | 'agents' | 'caps' | 'files' | 'warm'>;

export function serverDeps(core: ServedCore, log: Log): ServerDeps {
  const { executor, status, control, agents, caps, warm } = core;
  return { executor, status, control, agents, log, caps, warm, downloads: core.files.downloads };
}

// The SDK would reject bad arguments in its own words before our wrapper runs, so it gets a schema that lets
// everything through; the dispatcher validates against the catalog's strict schema and answers BAD_ARGS.
const PASS_THROUGH = z.looseObject({});

function annotationsOf(tool: ToolDefinition): ToolAnnotations {
  // destructiveHint only means something when readOnlyHint is false (MCP spec), so read-only tools skip it; and
  // readOnlyHint's default is false, so a tool that writes need not say so.
  return tool.readOnly ? { readOnlyHint: true } : { destructiveHint: tool.destructive };
}

/** A tool in an opt-in capability the session did not switch on: not listed, and refused by name if called anyway. */
function offError(name: string, cap: ToolCap): ToolError {
  return new ToolError('TOOL_OFF', `${name} is in the opt-in "${cap}" tools, which are off.`, {
    next: `Ask the person to switch on the "${cap}" tools in chrome-mcp's Allowed sites screen (or start it with --caps ${cap}), or do without ${name}.`,
  });
}

/** The first tool this call would run that is off: the tool itself, or one of a batch's steps. */
function firstOff(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  enabled: ReadonlySet<ToolCap>,
): ToolError | undefined {
  const isOff = (candidate: ToolDefinition | undefined): candidate is ToolDefinition & { cap: ToolCap } =>
    candidate?.cap !== undefined && !enabled.has(candidate.cap);
  if (isOff(tool)) return offError(tool.name, tool.cap);
  if (!tool.runsSteps || !Array.isArray(args['steps'])) return undefined;
  for (const step of args['steps'] as unknown[]) {
    const name = typeof step === 'object' && step !== null ? (step as { tool?: unknown }).tool : undefined;
    const stepTool = typeof name === 'string' ? toolByName(name) : undefined;
    if (isOff(stepTool)) return offError(stepTool.name, stepTool.cap);
  }
  return undefined;
}

/**
 * `agent`: the session's id, opened in `deps.agents` by whoever serves it, and closed when it ends. `caps`: the opt-in
 * capabilities it lists besides the core's own (a relay asks for its client's).
 */
export function buildServer(deps: ServerDeps, agent: string, caps: readonly ToolCap[] = []): McpServer {
  // The flags' and the client's sets are fixed for the session; the person's (the policy's `tools`) may change in it.
  const enabledNow = (): ReadonlySet<ToolCap> =>
    new Set([...(deps.caps ?? []), ...caps, ...deps.control.policy().tools]);
  // Per session: what one client's model learns of it says nothing about another's.
  const voiceMark = newVoiceMark();
  const instructions = voiceInstructions(voiceMark);
  const server = new McpServer({ name: 'chrome-mcp', version: VERSION }, { instructions });
  const clientName = (): string | undefined => server.server.getClientVersion()?.name;
  // The name a client gives stays for the session: cleaned (redacted) once it is known, not on every call.
  let cleaned: string | undefined;
  const client = (): string =>
    cleaned ?? (clientName() === undefined ? cleanClientName(undefined) : (cleaned = cleanClientName(clientName())));
  // The person's panel and tray list the session from here on, under the name its client gave.
  server.server.oninitialized = () => deps.agents.introduce(agent, clientName());
  const dispatch = createDispatch(deps, {
    client,
    elicitor: mcpElicitor(server.server),
    agent,
    voiceMark,
    devtools: () => enabledNow().has('devtools'),
  });
  const entries = CATALOG.map((definition: ToolDefinition) => {
    const registered = server.registerTool(
      definition.name,
      {
        title: definition.title,
        description: definition.description,
        inputSchema: PASS_THROUGH,
        annotations: annotationsOf(definition),
      },
      async (args, extra) => {
        const refused = firstOff(definition, args, enabledNow());
        return refused ? toErrorResult(refused) : dispatch(definition, args, extra);
      },
    );
    let listed: Tool | undefined;
    const list = (): Tool =>
      (listed ??= {
        name: definition.name,
        title: definition.title,
        description: definition.description,
        inputSchema: toolInputSchema(definition.input),
        ...(definition.output ? { outputSchema: toolOutputSchema(definition.output) } : {}),
        annotations: annotationsOf(definition),
      });
    return { definition, registered, list };
  });
  // Our own tools/list: the SDK's would publish the pass-through schema. This one publishes the catalog's,
  // compacted, because the model pays for these bytes on every turn; enable/disable still apply.
  server.server.setRequestHandler(ListToolsRequestSchema, () => {
    // After this answer is written (the SDK sends it in a microtask): what warming loads must not delay the list.
    if (deps.warm) setImmediate(deps.warm);
    const enabled = enabledNow();
    return {
      tools: entries
        .filter(({ definition, registered }) => registered.enabled && (!definition.cap || enabled.has(definition.cap)))
        .map(({ list }) => list()),
    };
  });
  announceToolSetChanges(server, deps, enabledNow);
  return server;
}

/**
 * The person switching a tool set on or off in the panel reaches every open session at once: MCP's list_changed
 * notification makes its client list the tools again. Heard until the server closes.
 */
function announceToolSetChanges(server: McpServer, deps: ServerDeps, enabledNow: () => ReadonlySet<ToolCap>): void {
  const key = () => [...enabledNow()].sort().join(',');
  let listed = key();
  const stop = deps.control.onPolicyChange(() => {
    const now = key();
    if (now === listed) return;
    listed = now;
    if (server.isConnected()) server.sendToolListChanged();
  });
  const close = server.close.bind(server);
  server.close = async () => {
    stop();
    await close();
  };
}

// The tool catalog: every MCP tool, in the order tools/list shows them.
import * as act from './act.js';
import { batch } from './batch.js';
import * as devtools from './devtools.js';
import { dialog } from './dialog.js';
import type { ToolDefinition } from './define.js';
import * as files from './files.js';
import { navigate } from './navigation.js';
import * as read from './read.js';
import { evaluate } from './scripts.js';
import { ask, plan } from './oversight.js';
import { status } from './session.js';
import * as tabs from './tabs.js';

export const CATALOG = [
  status,
  plan,
  ask,
  tabs.tabs,
  tabs.tab_use,
  tabs.tab_new,
  tabs.tab_select,
  tabs.tab_close,
  navigate,
  read.snapshot,
  read.find,
  read.frames,
  read.get_text,
  read.get_html,
  read.read_as_markdown,
  read.extract_links,
  read.screenshot,
  act.click,
  act.hover,
  act.drag,
  act.type,
  act.press,
  act.fill_form,
  act.select_option,
  act.scroll,
  act.wait_for,
  files.upload_file,
  files.download,
  files.downloads,
  dialog,
  act.resize,
  evaluate,
  batch,
  devtools.console_read,
  devtools.network,
  devtools.network_get,
  devtools.network_route,
  devtools.network_replay,
  devtools.api_learn,
  devtools.api_call,
  devtools.performance,
  devtools.inspect,
  devtools.sources,
] as const satisfies readonly ToolDefinition[];

/** Each operation a tool stands for, and its tool's entry (its exact type, for binding handlers). */
export type ToolOperation = (typeof CATALOG)[number]['op'];
export type ToolOf<Op extends ToolOperation> = Extract<(typeof CATALOG)[number], { op: Op }>;

const BY_NAME = new Map<string, ToolDefinition>(CATALOG.map((tool) => [tool.name, tool]));
const BY_OP = new Map<string, ToolDefinition>(CATALOG.map((tool) => [tool.op, tool]));

export function toolByName(name: string): ToolDefinition | undefined {
  return BY_NAME.get(name);
}

/** The tool that stands for an operation; undefined for the wire's own (ping, release_held), which no tool does. */
export function toolOf(op: string): ToolDefinition | undefined {
  return BY_OP.get(op);
}

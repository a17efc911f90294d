// The tool catalog: every MCP tool, in the order tools/list shows them.
import * as act from './act.js';
import { batch } from './batch.js';
import type { ToolDefinition } from './define.js';
import { navigate } from './navigation.js';
import * as read from './read.js';
import { evaluate } from './scripts.js';
import { ask, plan } from './oversight.js';
import { status } from './session.js';
import * as tabs from './tabs.js';

export const CATALOG: readonly ToolDefinition[] = [
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
  read.screenshot,
  act.click,
  act.hover,
  act.type,
  act.press,
  act.fill_form,
  act.select_option,
  act.scroll,
  act.wait_for,
  evaluate,
  batch,
] as ToolDefinition[];

export function toolByName(name: string): ToolDefinition | undefined {
  return CATALOG.find((tool) => tool.name === name);
}

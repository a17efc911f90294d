// Which engine function serves each page operation, and which operations act on the page (and so may navigate it).
import type { OperationContext, OperationResult, PageOperation } from '../protocol/operations.js';
import { evaluate } from './ops/eval.js';
import { find } from './ops/find.js';
import { fillForm, selectOption } from './ops/forms.js';
import { frames } from './ops/frames.js';
import { press, type } from './ops/keyboard.js';
import { navigate } from './ops/navigate.js';
import { click, hover } from './ops/pointer.js';
import { getHtml, getText } from './ops/read.js';
import { screenshot } from './ops/screenshot.js';
import { scroll } from './ops/scroll.js';
import { snapshot } from './ops/snapshot.js';
import { waitFor } from './ops/wait.js';
import type { PageContext } from './page-context.js';

export type PageOp = (page: PageContext, args: Record<string, unknown>, ctx: OperationContext) => Promise<OperationResult>;

export interface PageEntry {
  run: PageOp;
  /** Acts report ` → <new url>` when they navigate the tab. */
  act: boolean;
}

function entry<A>(run: (page: PageContext, args: A, ctx: OperationContext) => Promise<OperationResult>, act = false): PageEntry {
  // Arguments reach the executor already parsed by the tool's zod schema (MCP layer, wire guard or batch).
  return { run: run as unknown as PageOp, act };
}

export const PAGE_OPS: Record<PageOperation, PageEntry> = {
  navigate: entry(navigate),
  snapshot: entry(snapshot),
  find: entry(find),
  frames: entry(frames),
  get_text: entry(getText),
  get_html: entry(getHtml),
  screenshot: entry(screenshot),
  click: entry(click, true),
  hover: entry(hover, true),
  type: entry(type, true),
  press: entry(press, true),
  fill_form: entry(fillForm, true),
  select_option: entry(selectOption, true),
  scroll: entry(scroll, true),
  wait_for: entry(waitFor),
  // Not watched for navigation: that costs a renderer round trip per call, and eval is the call whose cost matters
  // most (it is the agent's cheapest probe). A script that navigates says so in its own value, or `tabs` shows it.
  eval: entry(evaluate),
};

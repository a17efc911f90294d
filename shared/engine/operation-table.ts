// Which engine function serves each page operation (the catalog entry's `op`).
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

function entry<A>(run: (page: PageContext, args: A, ctx: OperationContext) => Promise<OperationResult>): PageOp {
  // Arguments reach the executor already parsed by the tool's zod schema (MCP layer, wire guard or batch).
  return run as unknown as PageOp;
}

export const PAGE_OPS: Record<PageOperation, PageOp> = {
  navigate: entry(navigate),
  snapshot: entry(snapshot),
  find: entry(find),
  frames: entry(frames),
  get_text: entry(getText),
  get_html: entry(getHtml),
  screenshot: entry(screenshot),
  click: entry(click),
  hover: entry(hover),
  type: entry(type),
  press: entry(press),
  fill_form: entry(fillForm),
  select_option: entry(selectOption),
  scroll: entry(scroll),
  wait_for: entry(waitFor),
  eval: entry(evaluate),
};

// Which engine function serves each page operation (the catalog entry's `op`), bound by type to its tool's arguments.
import type { OperationContext, OperationResult, PageOperation } from '../protocol/operations.js';
import { readConsole } from './ops/console.js';
import { answerDialog } from './ops/dialog.js';
import { drag } from './ops/drag.js';
import { evaluate } from './ops/eval.js';
import { apiCall, apiLearn } from './ops/api.js';
import { networkGet, networkList } from './ops/network.js';
import { networkRoute } from './ops/network-route.js';
import { networkReplay } from './ops/network-replay.js';
import { performance } from './ops/performance.js';
import { inspect } from './ops/inspect.js';
import { sources } from './ops/sources.js';
import { find } from './ops/find.js';
import { fillForm, selectOption } from './ops/forms.js';
import { frames } from './ops/frames.js';
import { press, type } from './ops/keyboard.js';
import { navigate } from './ops/navigate.js';
import { click, hover } from './ops/pointer.js';
import { extractLinks } from './ops/links.js';
import { readAsMarkdown } from './ops/markdown.js';
import { getHtml, getText } from './ops/read.js';
import { screenshot } from './ops/screenshot.js';
import { scroll } from './ops/scroll.js';
import { snapshot } from './ops/snapshot.js';
import { waitFor } from './ops/wait.js';
import { uploadFile } from './ops/upload.js';
import { download } from './ops/download.js';
import type { PageContext } from './page-context.js';
import { bindHandlers } from '../tools/bind.js';

export type PageOp = (
  page: PageContext,
  args: Record<string, unknown>,
  ctx: OperationContext,
) => Promise<OperationResult>;

/**
 * The handlers as the executor calls them: with arguments its caller parsed by the op's own tool schema (the MCP
 * layer, the wire guard into the extension, or the batch). Each takes exactly its tool's arguments
 * (shared/tools/bind.ts): binding another's is a compile error.
 */
export const PAGE_OPS: Record<PageOperation, PageOp> = bindHandlers<PageOp, 1>()({
  navigate,
  snapshot,
  find,
  frames,
  get_text: getText,
  get_html: getHtml,
  read_as_markdown: readAsMarkdown,
  extract_links: extractLinks,
  screenshot,
  click,
  hover,
  drag,
  type,
  press,
  fill_form: fillForm,
  select_option: selectOption,
  scroll,
  wait_for: waitFor,
  eval: evaluate,
  console: readConsole,
  network: networkList,
  network_get: networkGet,
  network_route: networkRoute,
  network_replay: networkReplay,
  api_learn: apiLearn,
  api_call: apiCall,
  performance,
  inspect,
  sources,
  upload_file: uploadFile,
  download,
  dialog: answerDialog,
});

// Argument types of each operation, inferred from the catalog's zod schemas so they are never written twice.
import type { z } from 'zod';
import type * as act from './act.js';
import type { batch } from './batch.js';
import type * as devtools from './devtools.js';
import type * as files from './files.js';
import type { dialog } from './dialog.js';
import type { navigate } from './navigation.js';
import type * as read from './read.js';
import type { evaluate } from './scripts.js';
import type * as tabs from './tabs.js';
import type { ToolOf, ToolOperation } from './catalog.js';

type Args<T extends { input: z.ZodType }> = z.infer<T['input']>;

/** The arguments of the tool that stands for `Op`, as its schema parses them. */
export type ArgsOf<Op extends ToolOperation> = Args<ToolOf<Op>>;

export type NavigateArgs = Args<typeof navigate>;
export type SnapshotArgs = Args<typeof read.snapshot>;
export type FindArgs = Args<typeof read.find>;
export type FramesArgs = Args<typeof read.frames>;
export type GetTextArgs = Args<typeof read.get_text>;
export type GetHtmlArgs = Args<typeof read.get_html>;
export type ReadAsMarkdownArgs = Args<typeof read.read_as_markdown>;
export type ExtractLinksArgs = Args<typeof read.extract_links>;
export type ScreenshotArgs = Args<typeof read.screenshot>;
export type ClickArgs = Args<typeof act.click>;
export type HoverArgs = Args<typeof act.hover>;
export type DragArgs = Args<typeof act.drag>;
export type TypeArgs = Args<typeof act.type>;
export type PressArgs = Args<typeof act.press>;
export type FillFormArgs = Args<typeof act.fill_form>;
export type SelectOptionArgs = Args<typeof act.select_option>;
export type ScrollArgs = Args<typeof act.scroll>;
export type WaitForArgs = Args<typeof act.wait_for>;
export type ResizeArgs = Args<typeof act.resize>;
export type EvalArgs = Args<typeof evaluate>;
export type UploadFileArgs = Args<typeof files.upload_file>;
export type DownloadArgs = Args<typeof files.download>;
export type DialogArgs = Args<typeof dialog>;
export type BatchArgs = Args<typeof batch>;
export type ConsoleArgs = Args<typeof devtools.console_read>;
export type NetworkArgs = Args<typeof devtools.network>;
export type NetworkGetArgs = Args<typeof devtools.network_get>;
export type NetworkRouteArgs = Args<typeof devtools.network_route>;
export type NetworkReplayArgs = Args<typeof devtools.network_replay>;
export type ApiLearnArgs = Args<typeof devtools.api_learn>;
export type ApiCallArgs = Args<typeof devtools.api_call>;
export type PerformanceArgs = Args<typeof devtools.performance>;
export type InspectArgs = Args<typeof devtools.inspect>;
export type SourcesArgs = Args<typeof devtools.sources>;
export type TabUseArgs = Args<typeof tabs.tab_use>;
export type TabNewArgs = Args<typeof tabs.tab_new>;
export type TabSelectArgs = Args<typeof tabs.tab_select>;
export type TabCloseArgs = Args<typeof tabs.tab_close>;

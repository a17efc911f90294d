// upload_file: files on a file input, or in the file chooser a button's click opens (an input the page made and
// clicked). The browser reads the paths itself where it may (the fallback); the person's Chrome gets the bytes.
import { ToolError } from '../../protocol/errors.js';
import type { OperationContext, OperationResult, PageFile } from '../../protocol/operations.js';
import type { UploadFileArgs } from '../../tools/args.js';
import type { CdpEvent } from '../cdp.js';
import type { Frame } from '../frame.js';
import type { PageContext } from '../page-context.js';
import { resolveTarget } from '../targets.js';
import { clickElement, namesElement } from './pointer.js';

// A click's chooser opens within a task or two of the press; a page that opens none has had ample time by then.
const CHOOSER_WAIT_MS = 5_000;

/** The input to fill: a handle in our world, or the node a chooser named. */
type FileNode = { objectId: string } | { backendNodeId: number };

export async function uploadFile(
  page: PageContext,
  args: UploadFileArgs,
  ctx: OperationContext,
): Promise<OperationResult> {
  if (!namesElement(args))
    throw new ToolError('BAD_ARGS', 'Name the file input, or the button that opens the chooser, with ref or selector.');
  const handle = await resolveTarget(page, args, 'act');
  try {
    const info = await page.frames.call(handle.frame, 'fileInputInfo', [], { handles: [handle.objectId] });
    let frame = handle.frame;
    let node: FileNode = { objectId: handle.objectId };
    let multiple = info.multiple;
    let how = 'set on';
    if (info.fileInput) {
      if (info.disabled) throw new ToolError('DISABLED', 'The file input is disabled.');
    } else {
      const chooser = await openChooser(page, handle.frame, () => clickElement(page, handle));
      ({ frame, node } = chooser);
      multiple = chooser.multiple;
      how = 'chosen in the file chooser of';
    }
    if (!multiple && args.paths.length > 1)
      throw new ToolError('BAD_ARGS', `The input takes one file; ${args.paths.length} were given.`, {
        next: 'Upload one file, or target an input with `multiple`.',
      });
    await setFiles(page, frame, node, args.paths, ctx.uploads);
    const names = args.paths.map((path) => path.split(/[\\/]/).pop() ?? path);
    return { text: `${names.join(', ')} ${how} ${args.element ?? 'the input'}`, data: { files: names } };
  } finally {
    page.frames.release(handle.frame, [handle.objectId]);
  }
}

/**
 * Clicks with the frame's file chooser intercepted (no dialog opens), and answers the input it was opened for. Only
 * an element in our hands is clicked, so a chooser the page opens at another moment is never answered by us.
 */
async function openChooser(
  page: PageContext,
  frame: Frame,
  click: () => Promise<unknown>,
): Promise<{ frame: Frame; node: FileNode; multiple: boolean }> {
  const sessionId = frame.sessionId;
  let stop: () => void = () => undefined;
  const opened = new Promise<CdpEvent | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), CHOOSER_WAIT_MS);
    const unsubscribe = page.cdp.on((event) => {
      if (event.method !== 'Page.fileChooserOpened' || event.sessionId !== sessionId) return;
      clearTimeout(timer);
      resolve(event);
    });
    stop = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve(undefined);
    };
  });
  await page.cdp.send('Page.setInterceptFileChooserDialog', { enabled: true }, sessionId);
  try {
    await click();
    const event = await opened;
    if (!event)
      throw new ToolError('NOT_FILE_INPUT', 'The target is not a file input, and clicking it opened no file chooser.');
    const frameId = String(event.params['frameId']);
    const chooserFrame = (await page.frames.list()).find((each) => each.frameId === frameId) ?? frame;
    return {
      frame: chooserFrame,
      node: { backendNodeId: Number(event.params['backendNodeId']) },
      multiple: event.params['mode'] === 'selectMultiple',
    };
  } finally {
    stop();
    void page.cdp.send('Page.setInterceptFileChooserDialog', { enabled: false }, sessionId).catch(() => undefined);
  }
}

/** The browser reads the paths where it may; else the bytes the core read go in through the page (DataTransfer). */
async function setFiles(
  page: PageContext,
  frame: Frame,
  node: FileNode,
  paths: readonly string[],
  uploads: readonly PageFile[] | undefined,
): Promise<void> {
  if (uploads === undefined) {
    await page.cdp.send('DOM.setFileInputFiles', { files: paths, ...node }, frame.sessionId);
    return;
  }
  const objectId = 'objectId' in node ? node.objectId : await page.frames.resolveNode(frame, node.backendNodeId);
  try {
    const files = uploads.map(({ name, mimeType, base64 }) => ({ name, mimeType, base64 }));
    await page.frames.call(frame, 'putFiles', [files], { handles: [objectId] });
  } finally {
    if (!('objectId' in node)) page.frames.release(frame, [objectId]);
  }
}

// type mode=set: a code editor's buffer written whole through the editor's own API (in the page's world), found from
// the target or focus, and read back. No keys: focus, IME and the editor's typing helpers play no part.
import { z } from 'zod';
import { ToolError } from '../../protocol/errors.js';
import type { OperationResult } from '../../protocol/operations.js';
import type { TypeArgs } from '../../tools/args.js';
import { focusedField } from '../focused-field.js';
import { nodeInMainWorld, type ExceptionDetails } from '../main-world.js';
import { editorBuffer, type EditorWrite } from '../page/editor-buffer.js';
import type { InputState } from '../page/editing.js';
import type { Frame } from '../frames.js';
import type { PageContext } from '../page-context.js';
import { resolveTarget, type ElementHandle } from '../targets.js';
import { namesElement } from './pointer.js';
import { shippedCall } from '../shipped-call.js';

const EDITOR_GROUP = 'chrome-mcp-editor';

// The page's world answers: whatever comes back is checked before it is believed.
const WRITE = z.union([
  z.object({ kind: z.string(), value: z.string(), lines: z.number() }),
  z.object({ kind: z.string(), refused: z.string() }),
]);

export async function setEditorBuffer(page: PageContext, args: TypeArgs): Promise<OperationResult> {
  if (args.submit || args.clear)
    throw new ToolError(
      'BAD_ARGS',
      'mode set replaces the whole buffer: leave out clear and submit (press Enter after).',
    );
  const editor = await findEditor(page, args);
  try {
    page.frames.require(editor.frame, 'act');
    const written = await inPageWorld(page, editor, args.text);
    const what = args.element ?? `the ${written.kind}`;
    if ('refused' in written)
      throw new ToolError('INPUT_NOT_LANDED', `Nothing was written to ${what}: ${written.refused}.`, {
        next: 'Use type with mode verbatim instead (it types as a paste).',
      });
    const plain = (text: string) => text.replace(/\r\n?/g, '\n');
    if (plain(written.value) !== plain(args.text))
      throw new ToolError('INPUT_NOT_LANDED', `${what} did not keep the text: it holds ${written.value.length} chars.`);
    const chars = [...args.text].length;
    return { text: `set ${what} to ${written.lines} line${written.lines === 1 ? '' : 's'} (${chars} chars)` };
  } finally {
    page.frames.release(editor.frame, [editor.objectId]);
  }
}

/** The editor's root element in our world: around the target, or around focus, or the page's only one. */
async function findEditor(page: PageContext, args: TypeArgs): Promise<ElementHandle> {
  if (namesElement(args)) {
    const target = await resolveTarget(page, args, 'act');
    try {
      const opts = { handles: [target.objectId] as [string], returnHandle: true as const };
      return { frame: target.frame, objectId: await page.frames.call(target.frame, 'editorRoot', [], opts) };
    } finally {
      page.frames.release(target.frame, [target.objectId]);
    }
  }
  const { frame } = await focusedField(page.frames);
  return { frame, objectId: await page.frames.call(frame, 'editorRoot', [null], { returnHandle: true }) };
}

/**
 * The focused editor's whole buffer in place of what its input element shows (a few lines, or none: Monaco's
 * EditContext element holds no text), so typing is checked against what the editor holds. Other fields as they are.
 */
export async function withEditorValue(page: PageContext, frame: Frame, state: InputState): Promise<InputState> {
  if (!state.editor) return state;
  const root = { frame, objectId: await page.frames.call(frame, 'editorRoot', [null], { returnHandle: true }) };
  try {
    const read = await inPageWorld(page, root, null);
    return 'value' in read ? { ...state, value: read.value } : state;
  } finally {
    page.frames.release(frame, [root.objectId]);
  }
}

/** Calls editorBuffer on the same element as the page's own world sees it, where the editor's API lives. */
async function inPageWorld(page: PageContext, editor: ElementHandle, text: string | null): Promise<EditorWrite> {
  const session = editor.frame.sessionId;
  const objectId = await nodeInMainWorld(page.cdp, session, editor.objectId, EDITOR_GROUP);
  try {
    // The arrow shippedCall makes keeps this function's `this`: the editor's element.
    const declaration = `function (text) { return ${shippedCall(editorBuffer, 'this, text')}; }`;
    const answer = await page.cdp.send<{ result: { value?: unknown }; exceptionDetails?: ExceptionDetails }>(
      'Runtime.callFunctionOn',
      {
        objectId,
        functionDeclaration: declaration,
        arguments: [{ value: text }],
        returnByValue: true,
      },
      session,
    );
    if (answer.exceptionDetails) {
      const why = answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text;
      throw new ToolError('INPUT_NOT_LANDED', `The editor's API failed: ${why.split('\n')[0]!.slice(0, 200)}`);
    }
    const parsed = WRITE.safeParse(answer.result.value);
    if (!parsed.success) throw new ToolError('INPUT_NOT_LANDED', "The editor's API gave no answer we could read.");
    return parsed.data;
  } finally {
    void page.cdp.send('Runtime.releaseObjectGroup', { objectGroup: EDITOR_GROUP }, session).catch(() => undefined);
  }
}

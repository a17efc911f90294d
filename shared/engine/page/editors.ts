// In-page code editors (Monaco, CodeMirror 6 and 5) as the isolated world sees them: their root element, and
// whether one has rendered. Their buffers are reached through their own API in the page's world (editor-buffer.ts).

/** A selector for the root element each editor gives itself, whatever the page wraps it in. */
export function editorRoots(): string {
  return '.monaco-editor, .cm-editor, .CodeMirror';
}

/**
 * The editor `element` is part of (or the one editor inside it); without an element, the one holding focus, else the
 * page's only editor. None, or several with nothing to say which, is NOT_FOUND.
 */
export function editorRoot(element: Element | null): Element {
  const roots = __cm.editorRoots();
  const from = element ?? __cm.deepActiveElement();
  const around = from?.closest(roots);
  if (around) return around;
  const inside = element ? element.querySelectorAll(roots) : __cm.deepQueryAll(document, roots);
  // A Monaco diff editor nests two editors in one: only the outermost roots count.
  const outer = Array.from(inside).filter((root) => !root.parentElement?.closest(roots));
  if (outer.length === 1) return outer[0]!;
  const where = element ? `in ${__cm.describeElement(element)}` : 'with focus, and the page has ' + outer.length;
  throw new Error(`NOT_FOUND: No code editor (Monaco, CodeMirror) ${where}; name the editor with a ref or selector.`);
}

/**
 * The element a code editor takes typed input at (Monaco's EditContext element or textarea, CodeMirror's content or
 * textarea), when `element` is part of one editor or holds one; else null. A person's click reaches it; focus() on
 * the editor's surface or container would not.
 */
export function editorInput(element: Element): HTMLElement | null {
  const roots = __cm.editorRoots();
  const root =
    element.closest(roots) ?? (element.querySelectorAll(roots).length === 1 ? element.querySelector(roots) : null);
  return root?.querySelector<HTMLElement>('.native-edit-context, textarea.inputarea, .cm-content, textarea') ?? null;
}

/**
 * Some editor in this document is ready: a box of real size with its line layer in place. A Monaco editor laid out
 * before its container had a size collapses to a few pixels, which is not ready whatever it holds. Drawn lines are
 * not asked for: a background tab draws no frames, yet its editor takes a buffer and keys all the same.
 */
export function editorRendered(): boolean {
  return __cm.deepQueryAll(document, __cm.editorRoots()).some((root) => {
    const box = root.getBoundingClientRect();
    return box.width > 100 && box.height > 20 && !!root.querySelector('.view-lines, .cm-content, .CodeMirror-code');
  });
}

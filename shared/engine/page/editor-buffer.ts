// Runs in the page's MAIN world, on an editor's root element: reads the buffer, or writes it whole, through
// the editor's own API. Shipped alone by its source text (not part of the library: `__cm` does not exist there). An editor keeps
// its API where only the page's world sees it: `window.monaco`, CodeMirror's expando properties on its elements.

/** What the editor holds (after the write, if any), read through its API; or why it could not be. */
export type EditorWrite = { kind: string; value: string; lines: number } | { kind: string; refused: string };

interface MonacoModel {
  getFullModelRange(): unknown;
  getLineCount(): number;
}

interface MonacoEditor {
  getDomNode(): Element | null;
  getModel(): MonacoModel | null;
  getValue(): string;
  getOption(id: number): unknown;
  executeEdits(source: string, edits: { range: unknown; text: string; forceMoveMarkers?: boolean }[]): boolean;
  pushUndoStop(): void;
}

interface CodeMirror6View {
  state: { readOnly: boolean; doc: { length: number; lines: number; toString(): string } };
  dispatch(spec: { changes: { from: number; to: number; insert: string } }): void;
}

interface CodeMirror5 {
  getOption(name: string): unknown;
  setValue(text: string): void;
  getValue(): string;
  lineCount(): number;
}

/** `text` not a string (null, or left out: chrome.debugger drops a null argument): only read. */
export function editorBuffer(root: Element, text: string | null): EditorWrite {
  const read = typeof text !== 'string';
  const world = globalThis as unknown as {
    monaco?: { editor?: { getEditors?(): MonacoEditor[]; EditorOption?: { readOnly: number } } };
  };
  if (root.classList.contains('monaco-editor')) {
    const kind = 'Monaco editor';
    const api = world.monaco?.editor;
    const editor = api?.getEditors?.().find((candidate) => candidate.getDomNode() === root);
    const model = editor?.getModel();
    if (!api || !editor || !model) return { kind, refused: 'the page does not expose its Monaco API (window.monaco)' };
    if (read) return { kind, value: editor.getValue(), lines: model.getLineCount() };
    if (api.EditorOption && editor.getOption(api.EditorOption.readOnly) === true) return { kind, refused: 'read-only' };
    // An edit rather than setValue: the person can undo it, and the page hears it as a change like any other.
    editor.pushUndoStop();
    editor.executeEdits('chrome-mcp', [{ range: model.getFullModelRange(), text: text!, forceMoveMarkers: true }]);
    editor.pushUndoStop();
    return { kind, value: editor.getValue(), lines: model.getLineCount() };
  }
  if (root.classList.contains('cm-editor')) {
    const kind = 'CodeMirror editor';
    // CodeMirror 6 keeps its view on the content element: `cmTile` since 6.39, `cmView` before.
    type Holder = {
      cmTile?: { root?: { view?: CodeMirror6View } };
      cmView?: { rootView?: { view?: CodeMirror6View } };
    };
    const content = (root.querySelector('.cm-content') ?? root) as unknown as Holder;
    const view = content.cmTile?.root?.view ?? content.cmView?.rootView?.view;
    if (!view) return { kind, refused: 'its view cannot be reached from the page' };
    if (read) return { kind, value: view.state.doc.toString(), lines: view.state.doc.lines };
    if (view.state.readOnly) return { kind, refused: 'read-only' };
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text! } });
    return { kind, value: view.state.doc.toString(), lines: view.state.doc.lines };
  }
  const kind = 'CodeMirror 5 editor';
  const editor = (root as unknown as { CodeMirror?: CodeMirror5 }).CodeMirror;
  if (!editor) return { kind, refused: 'its API cannot be reached from the page' };
  if (read) return { kind, value: editor.getValue(), lines: editor.lineCount() };
  if (editor.getOption('readOnly')) return { kind, refused: 'read-only' };
  editor.setValue(text!);
  return { kind, value: editor.getValue(), lines: editor.lineCount() };
}

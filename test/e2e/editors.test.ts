// Code editors through a real MCP client on stdio, in both backends: Monaco, CodeMirror 6 and 5 (from npm, served by
// the fixture server) waited for with wait_for editorReady, written whole with type mode=set, and typed into
// verbatim with their indentation kept; each read back through the editor's own API.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { BACKENDS, startMcp, type McpRun } from '../support/mcp-backends.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CODE = "def area(w, h):\n    if w < 0:\n        raise ValueError('w')\n    return w * h\n";

const EDITORS = [
  { name: 'Monaco', page: 'editor-monaco.html', buffer: 'editor.getValue()' },
  { name: 'CodeMirror 6', page: 'editor-codemirror.html', buffer: 'view.state.doc.toString()' },
  { name: 'CodeMirror 5', page: 'editor-codemirror5.html', buffer: 'cm.getValue()' },
] as const;

/** CodeMirror 6 is ES modules with bare imports: bundled once for the page, as a site would ship it. */
async function codemirrorBundle(): Promise<string> {
  const { outputFiles } = await build({
    stdin: { contents: "export { EditorView, basicSetup } from 'codemirror';", resolveDir: ROOT, loader: 'js' },
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  return outputFiles[0]!.text;
}

describe.each(BACKENDS)('code editors over the %s backend', (backend) => {
  let fixtures: FixtureServer;
  let mcp: McpRun;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    const bundle = await codemirrorBundle();
    fixtures.serve('/generated/codemirror.js', { body: bundle, headers: { 'content-type': 'text/javascript' } });
    // Trusted, so the test can read each buffer back through eval; the tools themselves need act.
    mcp = await startMcp(backend, [{ site: `127.0.0.1:${new URL(fixtures.origin).port}`, level: 'trusted' }]);
  }, 120_000);

  afterAll(async () => {
    await mcp?.close();
    await fixtures?.close();
  });

  const buffer = async (expression: string) => JSON.parse((await mcp.call('eval', { expression })).text) as unknown;

  it.each(EDITORS)(
    '$name: waits for the editor and sets its buffer whole, named or the only one',
    async (editor) => {
      expect((await mcp.call('tab_new', { url: fixtures.url(editor.page) })).isError).toBe(false);
      const ready = await mcp.call('wait_for', { editorReady: true, timeout: 30_000 });
      expect(ready.text).toMatch(/^matched: a code editor to render/);

      const set = await mcp.call('type', { selector: '#editor', mode: 'set', text: CODE, element: 'the code editor' });
      expect(set.isError, set.text).toBe(false);
      expect(set.text).toBe(`set the code editor to 5 lines (${CODE.length} chars)`);
      expect(await buffer(editor.buffer)).toBe(CODE);

      // No target: the page's only editor.
      const again = await mcp.call('type', { mode: 'set', text: 'x = 1\n' });
      expect(again.text).toMatch(/^set the (Monaco|CodeMirror|CodeMirror 5) editor to 2 lines \(6 chars\)$/);
      expect(await buffer(editor.buffer)).toBe('x = 1\n');
    },
    120_000,
  );

  it.each(EDITORS)(
    "$name: types verbatim, keeping every line's indentation",
    async (editor) => {
      await mcp.call('navigate', { url: fixtures.url(editor.page) });
      // Waits by selector, not editorReady, so this test reads the same on code without editorReady.
      await mcp.call('wait_for', {
        selector: '.monaco-editor .view-lines, .cm-content, .CodeMirror-code',
        timeout: 30_000,
      });
      const typed = await mcp.call('type', { selector: '#editor', mode: 'verbatim', clear: true, text: CODE });
      expect(typed.isError, typed.text).toBe(false);
      expect(await buffer(editor.buffer)).toBe(CODE);
    },
    120_000,
  );

  it('says there is no editor to set, and waits for none in vain, on a page without one', async () => {
    await mcp.call('navigate', { url: fixtures.url('read-article.html') });
    const set = await mcp.call('type', { mode: 'set', text: CODE });
    expect(set.isError).toBe(true);
    expect(set.text).toMatch(/^NOT_FOUND: No code editor \(Monaco, CodeMirror\)/);
    const ready = await mcp.call('wait_for', { editorReady: true, timeout: 500 });
    expect(ready.text).toMatch(/^\{matched:false\}: a code editor to render did not appear within 500 ms/);
  });
});

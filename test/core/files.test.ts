// The core's file checks alone: an upload path resolves inside an allowed folder or is refused, and a download's
// name is made safe whatever the server or page asked for.
import { mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileNameOf } from '../../electron/core/files/file-name.js';
import { fileFolders, prepareFolders } from '../../electron/core/files/folders.js';
import { saveDownload } from '../../electron/core/files/save-download.js';
import { readUploads } from '../../electron/core/files/upload-bytes.js';
import { resolveUploadPaths } from '../../electron/core/files/upload-paths.js';
import { ToolError } from '../../shared/protocol/errors.js';
import { removeDir } from '../support/remove-dir.js';

const root = mkdtempSync(join(tmpdir(), 'chrome-mcp-files-unit-'));
const folders = fileFolders(join(root, 'data'), [join(root, 'extra')]);
prepareFolders(folders);
mkdirSync(join(root, 'extra'));
mkdirSync(join(root, 'outside'));
writeFileSync(join(folders.uploads[0]!, 'a.txt'), 'a');
writeFileSync(join(root, 'outside', 'b.txt'), 'b');
// A folder whose name starts like an allowed one is not inside it.
mkdirSync(join(root, 'extra-not'));
writeFileSync(join(root, 'extra-not', 'c.txt'), 'c');
symlinkSync(join(root, 'outside'), join(root, 'extra', 'linked-dir'));

afterAll(() => removeDir(root));

function refusal(paths: string[]): string {
  try {
    resolveUploadPaths(paths, folders);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('FILE_REFUSED');
    return (error as ToolError).message;
  }
  throw new Error(`${paths.join(', ')} was let through`);
}

describe('upload paths', () => {
  it('resolves a relative path inside the uploads folder, and an absolute one in any allowed folder', () => {
    expect(resolveUploadPaths(['a.txt'], folders)).toEqual([join(folders.uploads[0]!, 'a.txt')]);
  });

  it('refuses a sibling folder sharing a prefix, a symlinked folder leading out, and the folder itself', () => {
    expect(refusal([join(root, 'extra-not', 'c.txt')])).toContain('outside the folders');
    expect(refusal([join(root, 'extra', 'linked-dir', 'b.txt')])).toContain('outside the folders');
    expect(refusal([join(root, 'extra')])).toContain('outside the folders');
    expect(refusal(['a.txt', 'sub\\..\\..\\x'])).toContain('".."');
  });
});

describe('download names', () => {
  it.each([
    [{ disposition: 'attachment; filename="../../etc/passwd"' }, '_.._etc_passwd'],
    [{ disposition: 'attachment; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.pdf; filename="resume.pdf"' }, 'résumé.pdf'],
    [{ name: 'con.txt' }, 'download-con.txt'],
    [{ name: '...hidden' }, 'hidden'],
    [{ name: 'a\u0000b\u001fc<>|.txt' }, 'a_b_c___.txt'],
    [{ url: 'https://x.example/files/report%201.csv?x=1' }, 'report 1.csv'],
    [{ url: 'https://x.example/' }, 'download'],
    [{ disposition: 'attachment; filename=plain.pdf' }, 'plain.pdf'],
    // A header that does not parse names nothing: the URL's name is used.
    [{ disposition: 'attachment; filename="unclosed', url: 'https://x.example/from-url.bin' }, 'from-url.bin'],
    [{ name: ' .. ' }, 'download'],
    [{ name: `${'x'.repeat(300)}.tar-gz` }, `${'x'.repeat(193)}.tar-gz`],
    [{ name: `${'é'.repeat(150)}.pdf` }, `${'é'.repeat(98)}.pdf`],
  ])('%o is saved as %s', (given, expected) => {
    expect(fileNameOf({ name: '', mimeType: 'text/plain', base64: '', ...given })).toBe(expected);
  });

  it('gives an upload the type its extension names, or none', async () => {
    const dir = folders.uploads[0]!;
    for (const name of ['t.csv', 'p.PNG', 'd.docx', 'x.nothing-known']) writeFileSync(join(dir, name), 'x');
    const files = await readUploads(['t.csv', 'p.PNG', 'd.docx', 'x.nothing-known'].map((name) => join(dir, name)));
    const types = files.map((file) => file.mimeType);
    expect(types).toEqual([
      'text/csv',
      'image/png',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      '',
    ]);
  });

  it('writes 0600 and never over a file already there, even a link planted under its name', () => {
    const dir = folders.downloads;
    symlinkSync(join(root, 'outside', 'b.txt'), join(dir, 'planted.txt'));
    const file = { name: 'planted.txt', mimeType: 'text/plain', base64: Buffer.from('new').toString('base64') };
    const saved = saveDownload(file, dir);
    expect(saved.name).toBe('planted (2).txt');
    expect(readFileSync(join(root, 'outside', 'b.txt'), 'utf8')).toBe('b');
    expect(statSync(saved.path).mode & 0o777).toBe(0o600);
  });
});

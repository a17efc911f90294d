// Files in and out through a real MCP client over stdio, in both backends: the launched browser (--browser fallback)
// and the person's Chrome through the real extension. The page itself reports what it read from an upload; downloads
// are checked on disk, in the app's own downloads folder.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readControlFile } from '../../electron/core/control/control-file.js';
import { createControlClient, loopbackOrigin, type ControlClient } from '../../shared/control/client.js';
import { MAX_FILE_BYTES } from '../../shared/protocol/operations.js';
import { startLinkedCore, type LinkedCore } from '../support/linked-core.js';
import { registerTestServerPort, TEST_POLICY_FLAGS } from '../support/test-policy.js';
import { dataOf, textOf, type CallResult } from '../support/tool-result.js';
import { startMcpBackend } from '../support/mcp-backends.js';
import { removeDir } from '../support/remove-dir.js';

const SECRET = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
const CSV = 'name,amount\nada,12\ngrace,34\n';

const PAGES: Record<string, { type: string; body: string | Buffer; disposition?: string; redirect?: string }> = {
  '/upload': {
    type: 'text/html',
    body: `<title>upload</title>
<input type="file" id="direct" multiple><pre id="out"></pre>
<button id="pick">Attach</button><pre id="picked"></pre>
<script>
  const report = (files, into) => Promise.all([...files].map((f) => f.text().then((t) => f.name + ':' + t.trim())))
    .then((lines) => { document.getElementById(into).textContent = lines.join('|'); });
  document.getElementById('direct').addEventListener('change', (e) => report(e.target.files, 'out'));
  document.getElementById('pick').addEventListener('click', () => {
    const input = document.createElement('input');
    input.type = 'file';
    input.onchange = () => report(input.files, 'picked');
    input.click();
  });
</script>`,
  },
  '/downloads': {
    type: 'text/html',
    body: `<title>downloads</title>
<a id="csv" href="/report.csv">report</a>
<button id="export" onclick="location.href='/export.csv'">Export</button>
<button id="blob">Make</button>
<a id="big" href="/big.bin">big</a>
<script>
  // A file made in the page: a blob: URL behind an <a download> the handler clicks, as export buttons do.
  document.getElementById('blob').addEventListener('click', () => {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob(['made in the page\\n'], { type: 'text/plain' }));
    a.download = 'made.txt';
    document.body.append(a);
    a.click();
  });
</script>`,
  },
  '/report.csv': { type: 'text/csv', body: CSV, disposition: 'attachment; filename="report.csv"' },
  '/export.csv': { type: 'text/csv', body: 'exported,1\n', disposition: 'attachment; filename="export.csv"' },
  '/notes.txt': { type: 'text/plain', body: `notes\nkey ${SECRET}\nend\n` },
  '/big.bin': { type: 'application/octet-stream', body: Buffer.alloc(MAX_FILE_BYTES + 1024, 7) },
};

let server: Server;
let origin: string;
/** A site the policy never allowed, and every request it received. */
let elsewhere: Server;
const elsewhereHits: string[] = [];
const roots: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const page = PAGES[new URL(request.url ?? '/', 'http://x').pathname];
    if (!page) return void response.writeHead(404).end();
    if (page.redirect) return void response.writeHead(302, { location: page.redirect }).end();
    response.writeHead(200, {
      'content-type': page.type,
      ...(page.disposition ? { 'content-disposition': page.disposition } : {}),
    });
    response.end(page.body);
  });
  elsewhere = createServer((request, response) => {
    elsewhereHits.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/csv' }).end('taken,1\n');
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  const away = `http://127.0.0.1:${(elsewhere.address() as { port: number }).port}/taken.csv`;
  PAGES['/away'] = { type: 'text/plain', body: '', redirect: away };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  registerTestServerPort(port);
  origin = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await new Promise((resolve) => elsewhere?.close(resolve));
  for (const root of roots) removeDir(root);
});

interface Running {
  client: Client;
  control: ControlClient;
  dataDir: string;
  close(): Promise<void>;
}

/** A folder the person allows with --upload-dir, and one they never named. */
function folders(): { extra: string; outside: string } {
  const root = mkdtempSync(join(tmpdir(), 'chrome-mcp-files-'));
  roots.push(root);
  const extra = join(root, 'extra');
  const outside = join(root, 'outside');
  mkdirSync(extra);
  mkdirSync(outside);
  writeFileSync(join(extra, 'extra.txt'), 'from the extra folder\n');
  writeFileSync(join(outside, 'private.txt'), 'never upload me\n');
  return { extra, outside };
}

async function startFallback(flags: string[]): Promise<Running> {
  const { client, dataDir, close } = await startMcpBackend('fallback', [...TEST_POLICY_FLAGS, ...flags]);
  const file = readControlFile(dataDir);
  if (!file) throw new Error('chrome-mcp wrote no control.json');
  const control = createControlClient({ origin: loopbackOrigin(file.port), token: file.token });
  return { client, control, dataDir, close };
}

async function startExtension(flags: string[]): Promise<Running> {
  const linked: LinkedCore = await startLinkedCore([...TEST_POLICY_FLAGS, ...flags]);
  // A person's Chrome saves downloads to their own folder (a headless one would refuse them): set by the test's own
  // browser connection, which the extension never sees.
  const theirs = mkdtempSync(join(tmpdir(), 'chrome-mcp-their-downloads-'));
  roots.push(theirs);
  await linked.browser.control.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: theirs });
  return { client: linked.client, control: linked.control, dataDir: linked.dataDir, close: () => linked.close() };
}

describe.each([
  ['the launched browser', startFallback],
  ["the person's Chrome (extension)", startExtension],
])('files in and out through %s', (_, start) => {
  let running: Running;
  let client: Client;
  let dirs: { extra: string; outside: string };
  let uploads: string;
  let downloads: string;

  const call = (name: string, args: Record<string, unknown> = {}): Promise<CallResult> =>
    client.callTool({ name, arguments: args });
  const ok = async (name: string, args: Record<string, unknown> = {}): Promise<CallResult> => {
    const result = await call(name, args);
    expect(result.isError, textOf(result)).toBeFalsy();
    return result;
  };
  const refused = async (name: string, args: Record<string, unknown>, code: string): Promise<string> => {
    const result = await call(name, args);
    expect(result.isError, textOf(result)).toBe(true);
    expect(textOf(result)).toMatch(new RegExp(`^${code}\\b`));
    return textOf(result);
  };
  const pageText = async (selector: string) => textOf(await ok('get_text', { selector }));
  const setDownloads = async (on: boolean) => {
    const view = await running.control.call('policy.get', {});
    await running.control.call('policy.set', { rules: view.rules, default: view.default, downloads: on });
  };
  const saved = () => readdirSync(downloads).sort();

  beforeAll(async () => {
    dirs = folders();
    running = await start(['--upload-dir', dirs.extra]);
    client = running.client;
    uploads = join(running.dataDir, 'uploads');
    downloads = join(running.dataDir, 'downloads');
    writeFileSync(join(uploads, 'hello.txt'), 'hello from the uploads folder\n');
    writeFileSync(join(dirs.outside, 'target.txt'), 'outside\n');
    symlinkSync(join(dirs.outside, 'private.txt'), join(uploads, 'escape.txt'));
    mkdirSync(join(uploads, 'folder'));
    await ok('tab_new', { url: `${origin}/upload` });
  }, 60_000);

  afterAll(async () => {
    await running?.close();
  });

  it('sets files on a file input: the page reads their names and contents', async () => {
    const result = await ok('upload_file', {
      selector: '#direct',
      paths: ['hello.txt', join(dirs.extra, 'extra.txt')],
    });
    expect(textOf(result)).toContain('hello.txt, extra.txt');
    await ok('wait_for', { text: 'from the extra folder' });
    expect(await pageText('#out')).toBe('hello.txt:hello from the uploads folder|extra.txt:from the extra folder');
  });

  it('answers the file chooser a button opens with input.click()', async () => {
    await ok('upload_file', { selector: '#pick', paths: [join(uploads, 'hello.txt')] });
    // Not by its text: the test before left the same words in #out.
    await ok('wait_for', { selector: '#picked:not(:empty)' });
    expect(await pageText('#picked')).toBe('hello.txt:hello from the uploads folder');
  });

  it.each([
    ['a file outside the allowed folders', (): string => join(dirs.outside, 'private.txt'), 'outside the folders'],
    ['a path that climbs out with ..', (): string => `../${'x'}/private.txt`, '".."'],
    ['an absolute path with ..', (): string => `${uploads}/../control.json`, '".."'],
    ['a symlink in the uploads folder that points outside', (): string => 'escape.txt', 'outside the folders'],
    ['a directory', (): string => 'folder', 'not a regular file'],
    ['a missing file', (): string => 'missing.txt', 'no such file'],
  ])('refuses %s, and the page gets nothing', async (_, path, why) => {
    const text = await refused('upload_file', { selector: '#direct', paths: [path()] }, 'FILE_REFUSED');
    expect(text).toContain(why);
    expect(text).toContain('--upload-dir');
    expect(await pageText('#out')).not.toContain('never upload me');
  });

  it('refuses downloads while the policy has them off: nothing is saved', async () => {
    await ok('navigate', { url: `${origin}/downloads` });
    for (const args of [{ selector: '#csv' }, { selector: '#export' }, { url: `${origin}/report.csv` }]) {
      const text = await refused('download', args, 'POLICY_DENIED');
      expect(text).toContain('Downloads are off');
    }
    expect(saved()).toEqual([]);
  });

  it('saves a link, a click that turns into a download, and a URL into the downloads folder', async () => {
    await setDownloads(true);
    const link = await ok('download', { selector: '#csv' });
    expect(link.structuredContent ?? {}).toMatchObject({ name: 'report.csv', size: CSV.length, mimeType: 'text/csv' });
    expect(textOf(link)).toContain('first lines:\nname,amount\nada,12');
    expect(readFileSync(join(downloads, 'report.csv'), 'utf8')).toBe(CSV);

    const clicked = await ok('download', { selector: '#export' });
    expect(textOf(clicked)).toContain('saved export.csv');
    expect(readFileSync(join(downloads, 'export.csv'), 'utf8')).toBe('exported,1\n');

    const made = await ok('download', { selector: '#blob' });
    expect(textOf(made)).toContain('saved made.txt');
    expect(readFileSync(join(downloads, 'made.txt'), 'utf8')).toBe('made in the page\n');

    // Downloaded again: a name of its own, never over the first.
    await ok('download', { url: `${origin}/report.csv` });
    expect(readFileSync(join(downloads, 'report (2).csv'), 'utf8')).toBe(CSV);
    // The tab stayed on its page throughout.
    expect(textOf(await ok('tabs'))).toContain(`${origin}/downloads`);

    const listed = textOf(await ok('downloads'));
    for (const name of ['report.csv', 'export.csv', 'made.txt', 'report (2).csv']) expect(listed).toContain(name);
  });

  it('judges each redirect hop of a URL download: a site the person did not allow receives no request', async () => {
    const before = saved();
    const text = await refused('download', { url: `${origin}/away` }, '(POLICY_DENIED|DOMAIN_CONFIRMATION_REQUIRED)');
    expect(text).toContain('stopped before any request reached');
    expect(elsewhereHits).toEqual([]);
    expect(saved()).toEqual(before);
  });

  it("masks a secret in a text file's first lines; the file on disk is kept whole", async () => {
    const result = await ok('download', { url: `${origin}/notes.txt` });
    expect(textOf(result)).toContain('first lines:\nnotes\nkey sk_live_');
    expect(textOf(result)).not.toContain(SECRET);
    expect(JSON.stringify(dataOf(result) ?? {})).not.toContain(SECRET);
    expect(readFileSync(join(downloads, 'notes.txt'), 'utf8')).toContain(SECRET);
  });

  it('refuses a file over the size cap, and saves none of it', async () => {
    const before = saved();
    const text = await refused('download', { selector: '#big' }, 'DOWNLOAD_TOO_LARGE');
    expect(text).toContain('over the cap');
    expect(saved()).toEqual(before);
  });
});

// `chrome-mcp ui`: opens the running core's panel in the default browser. The token never goes on a command line
// (any local user can read another's argv, in `ps` or /proc): the opener is handed a 0600 file in the private data dir
// that sends the browser on to the panel with the token in the URL fragment (a fragment never reaches a server, a log
// or a Referer; the panel moves it out of the address bar at once). Jupyter opens its notebooks the same way.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loopbackOrigin } from '../../../shared/control/client.js';
import { resolveDataDir } from '../../core/config.js';
import { readControlFile } from '../../core/control/control-file.js';
import { writeFileAtomic } from '../../core/pairing/private-files.js';
import { parseFlags } from './args.js';

/** In the data dir beside control.json, with the same protection: it holds the same token. */
export const OPEN_FILE = 'open-panel.html';

export const usage = `Usage: chrome-mcp ui [--data-dir DIR] [--print]

Opens the chrome-mcp panel in your default browser: what the agent is doing, questions and held
acts waiting for you, your allowed sites, Stop, pairing and the audit log. It needs chrome-mcp to
be running (your MCP client starts it). Your browser opens a file in the data dir, readable by
you alone, that forwards it to the panel: the key never appears on a command line.

Options:
  --data-dir DIR   the core's state folder (env CHROME_MCP_DATA, default ~/.chrome-mcp)
  --print          print the panel's address instead of opening it; it holds this run's key,
                   so do not share it
`;

export async function run(argv: string[]): Promise<number> {
  const values = parseFlags(argv, { 'data-dir': { type: 'string' }, print: { type: 'boolean' } });
  const dataDir = resolveDataDir(values['data-dir']);
  const file = readControlFile(dataDir);
  if (!file) {
    process.stderr.write(
      `chrome-mcp ui: no chrome-mcp is running on ${dataDir}.\nStart your MCP client (it runs chrome-mcp), or pass the --data-dir it uses.\n`,
    );
    return 1;
  }
  const origin = loopbackOrigin(file.port);
  const url = `${origin}/#token=${file.token}`;
  if (values.print) {
    process.stdout.write(`${url}\n`);
    return 0;
  }
  const opened = await openInBrowser(writeOpenFile(dataDir, url));
  if (opened !== true) {
    process.stderr.write(
      `chrome-mcp ui: could not open a browser (${opened}).\nRun \`chrome-mcp ui --print\` and open the address it prints.\n`,
    );
    return 1;
  }
  process.stdout.write(`Opened the panel at ${origin}/ in your browser.\n`);
  return 0;
}

/**
 * Writes the page that forwards to `url` (0600, replacing the last one) and returns its path: only the person can read
 * it, and what goes on the opener's command line is just its name.
 */
function writeOpenFile(dataDir: string, url: string): string {
  const path = join(dataDir, OPEN_FILE);
  // The port is a number and the token base64url: nothing in the URL needs escaping in an attribute or a string.
  writeFileAtomic(
    path,
    [
      '<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Chrome MCP</title>',
      `<meta http-equiv="refresh" content="0; url=${url}">`,
      `<p><a href="${url}">Open the Chrome MCP panel</a></p>`,
      '',
    ].join('\n'),
  );
  return path;
}

/** true once the system's opener started on `file`, or why it could not. */
function openInBrowser(file: string): Promise<true | string> {
  // explorer opens a file with its default program and parses no command line the way cmd's `start` would.
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [file]]
      : process.platform === 'win32'
        ? ['explorer.exe', [file]]
        : ['xdg-open', [pathToFileURL(file).href]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', (error) => resolve(`${command}: ${error.message}`));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

// `chrome-mcp ui`: opens the running core's panel in the default browser, with this run's token in the URL fragment
// (a fragment never reaches a server, a log or a Referer; the panel moves it out of the address bar at once).
import { spawn } from 'node:child_process';
import { loopbackOrigin } from '../../../shared/control/client.js';
import { resolveDataDir } from '../../core/config.js';
import { readControlFile } from '../../core/control/control-file.js';
import { parseFlags } from './args.js';

export const usage = `Usage: chrome-mcp ui [--data-dir DIR] [--print]

Opens the chrome-mcp panel in your default browser: what the agent is doing, questions and held
acts waiting for you, your allowed sites, Stop, pairing and the audit log. It needs chrome-mcp to
be running (your MCP client starts it).

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
    process.stderr.write(`chrome-mcp ui: no chrome-mcp is running on ${dataDir}.\nStart your MCP client (it runs chrome-mcp), or pass the --data-dir it uses.\n`);
    return 1;
  }
  const origin = loopbackOrigin(file.port);
  const url = `${origin}/#token=${file.token}`;
  if (values.print) {
    process.stdout.write(`${url}\n`);
    return 0;
  }
  const opened = await openInBrowser(url);
  if (opened !== true) {
    process.stderr.write(`chrome-mcp ui: could not open a browser (${opened}).\nRun \`chrome-mcp ui --print\` and open the address it prints.\n`);
    return 1;
  }
  process.stdout.write(`Opened the panel at ${origin}/ in your browser.\n`);
  return 0;
}

/** true once the system's opener started, or why it could not. */
function openInBrowser(url: string): Promise<true | string> {
  // cmd's `start` takes a window title first; the token is base64url, so nothing in the URL is special to cmd.
  const [command, args, verbatim] =
    process.platform === 'darwin' ? ['open', [url], false]
    : process.platform === 'win32' ? ['cmd', ['/d', '/s', '/c', `start "" "${url}"`], true]
    : ['xdg-open', [url], false];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, windowsVerbatimArguments: verbatim });
    child.once('error', (error) => resolve(`${command}: ${error.message}`));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

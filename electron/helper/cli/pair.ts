// `chrome-mcp pair`: a one-time code for the extension's popup, the manual way to pair.
import { resolveDataDir } from '../../core/config.js';
import { readLiveBridgeState } from '../../core/pairing/bridge-state.js';
import { CODE_TRIES, CODE_TTL_MS, issuePairingCode } from '../../core/pairing/pairing-code.js';
import { parseFlags } from './args.js';

export const usage = `Usage: chrome-mcp pair [--data-dir DIR]

Shows a one-time code to type into the Chrome MCP extension's popup. It works once, for
${CODE_TTL_MS / 60_000} minutes, and dies after ${CODE_TRIES} pairing attempts. It is never sent: the app and the extension
each prove they know it. Pairing gives the extension a new secret and the old one stops working. The core (your MCP client's chrome-mcp) must be running to take it.

Options:
  --data-dir DIR   the core's state folder (env CHROME_MCP_DATA, default ~/.chrome-mcp)
`;

export async function run(argv: string[]): Promise<number> {
  const values = parseFlags(argv, { 'data-dir': { type: 'string' } });
  const dataDir = resolveDataDir(values['data-dir']);
  // The code is the one thing printed: it is short-lived, single use and only useful to the running core.
  const { code } = issuePairingCode(dataDir);
  process.stdout.write(
    `Pairing code: ${code}\n\nType it into the Chrome MCP extension's popup within ${CODE_TTL_MS / 60_000} minutes. It works once.\n`,
  );
  if (!readLiveBridgeState(dataDir)) {
    process.stdout.write(
      `\nNo core is running on ${dataDir} yet: start your MCP client (it runs chrome-mcp) before you enter the code.\n`,
    );
  }
  return 0;
}

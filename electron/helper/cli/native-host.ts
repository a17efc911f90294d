// `chrome-mcp native-host --data-dir DIR <origin>`: what the browser runs through our wrapper for sendNativeMessage.
import { parseArgs } from 'node:util';
import { resolveDataDir } from '../../core/config.js';
import { log } from '../../core/log.js';
import { serveNativeHost } from '../../core/pairing/native-host.js';
import { SecretStore } from '../../core/pairing/secret-store.js';

export const usage = `Usage: chrome-mcp native-host --data-dir DIR <origin>

Run by the browser (through the wrapper install-native-host writes), not by hand: answers the extension's
pairing request over native-messaging framing on stdin/stdout.
`;

export async function run(argv: string[]): Promise<number> {
  // Not strict: Chrome appends arguments of its own (on Windows `--parent-window=N`), and may add more some day.
  const { values, positionals } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' } },
    strict: false,
    allowPositionals: true,
  });
  const flag = values['data-dir'];
  const dataDir = resolveDataDir(typeof flag === 'string' ? flag : undefined);
  // stdout carries the framed replies: a stray console.log anywhere would corrupt them.
  console.log = console.info = console.debug = console.error;
  await serveNativeHost({
    dataDir,
    origin: positionals[0],
    store: new SecretStore(dataDir),
    input: process.stdin,
    output: process.stdout,
    log,
  });
  return 0;
}

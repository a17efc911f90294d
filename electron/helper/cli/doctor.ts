// `chrome-mcp doctor`: what is installed, what is connected, where the secret lives, and the fix for each problem.
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { resolveDataDir } from '../../core/config.js';
import { SecretStore } from '../../core/pairing/secret-store.js';
import { parseFlags } from './args.js';
import type { Finding } from './doctor-finding.js';
import { installFindings } from './doctor-install.js';
import { linkFindings, secretFindings } from './doctor-link.js';

export const usage = `Usage: chrome-mcp doctor [--data-dir DIR] [--browser-data-dir DIR]

Says what is installed (extension build, native host for each browser), what is connected (core,
bridge, extension), whether what listens on the bridge port proves it holds the pairing secret (the
extension refuses anything that does not), and where the pairing secret lives, with the command that
fixes each problem.
Exits 1 when there is a problem.

Options:
  --data-dir DIR          the core's state folder (env CHROME_MCP_DATA, default ~/.chrome-mcp)
  --browser-data-dir DIR  check the native host of a browser started with --user-data-dir=DIR
`;

function section(title: string, findings: Finding[]): string {
  const lines = findings.map(
    (finding) => `  ${finding.ok ? 'ok' : '!!'} ${finding.text}${finding.fix ? `\n      fix: ${finding.fix}` : ''}`,
  );
  return `${title}\n${lines.join('\n')}\n`;
}

/** The secret to check the bridge's proof with; a store that does not answer is reported under Pairing instead. */
function readSecret(store: SecretStore): Promise<string | undefined> {
  return store.read().then(
    (stored) => stored?.secret,
    () => undefined,
  );
}

export async function run(argv: string[]): Promise<number> {
  const values = parseFlags(argv, { 'data-dir': { type: 'string' }, 'browser-data-dir': { type: 'string' } });
  const dataDir = resolveDataDir(values['data-dir']);
  const browserDataDir = values['browser-data-dir'] ? resolve(values['browser-data-dir']) : undefined;
  const store = new SecretStore(dataDir);
  const sections: Array<[string, Finding[]]> = [
    ['Installed', installFindings({ dataDir, platform: process.platform, home: homedir(), browserDataDir })],
    ['Connected', await linkFindings(dataDir, await readSecret(store))],
    ['Pairing', await secretFindings(dataDir, store)],
  ];
  const problems = sections.flatMap(([, findings]) => findings).filter((finding) => !finding.ok).length;
  process.stdout.write(
    `chrome-mcp doctor: data dir ${dataDir}\n\n${sections.map(([title, findings]) => section(title, findings)).join('\n')}\n`,
  );
  process.stdout.write(problems ? `${problems} problem${problems === 1 ? '' : 's'}.\n` : 'All good.\n');
  return problems ? 1 : 0;
}

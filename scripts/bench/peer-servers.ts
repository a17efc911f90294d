// The servers the bench sets side by side over MCP stdio: chrome-mcp from a built cli.js, and Playwright MCP from the
// cli.js PLAYWRIGHT_MCP names (an `npm i @playwright/mcp` outside the repo; not a dependency), both on Debian's Chromium.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cliArgs, type SpawnSpec } from './mcp-client.js';

const CHROMIUM = process.env['CHROME_MCP_CHROMIUM'] ?? '/usr/bin/chromium';
const PLAYWRIGHT = process.env['PLAYWRIGHT_MCP'];

export interface Server {
  name: string;
  navigate: string;
  /** The command that starts it, its files kept under `work`. */
  spawn(work: string): SpawnSpec;
}

/** chrome-mcp from the `cli` given: this build, or another one (an earlier build's cli.js). */
export const ours = (name: string, cli: string): Server => ({
  name,
  navigate: 'navigate',
  spawn: (work) => ({
    command: process.execPath,
    args: cliArgs(cli, join(work, 'data')),
    env: { ...(process.env as Record<string, string>), CHROME_MCP_CHROMIUM: CHROMIUM },
  }),
});

const root = process.getuid?.() === 0 ? ['--no-sandbox'] : [];

/** Playwright MCP, or undefined (the caller says it skipped) when PLAYWRIGHT_MCP names no cli.js. */
export function playwrightMcp(): Server | undefined {
  if (!PLAYWRIGHT || !existsSync(PLAYWRIGHT)) return undefined;
  return {
    name: 'Playwright MCP',
    navigate: 'browser_navigate',
    spawn: (work) => ({
      command: process.execPath,
      args: [PLAYWRIGHT, '--headless', '--isolated', '--executable-path', CHROMIUM, ...root, '--output-dir', work],
      cwd: work,
    }),
  };
}

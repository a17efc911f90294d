// Which process this is: `--mcp-helper`, the stdio relay an MCP client runs, with no window and no tray; otherwise the
// tray app. Each mode loads only its own modules. main.ts calls it.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app } from 'electron';
import { HELPER_FLAG } from './helper-mode.js';
import type { AppPaths } from './app-paths.js';

const paths = (): AppPaths => ({
  mainDir: dirname(fileURLToPath(import.meta.url)),
  appPath: app.getAppPath(),
  resourcesPath: process.resourcesPath,
  isPackaged: app.isPackaged,
});

export async function main(argv: readonly string[] = process.argv): Promise<void> {
  if (argv.includes(HELPER_FLAG)) {
    const { runHelperProcess } = await import('./helper-process.js');
    return runHelperProcess(paths());
  }
  const { runApp } = await import('./app.js');
  runApp(paths());
}


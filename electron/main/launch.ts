// Which process this is: `--mcp-helper`, the stdio relay an MCP client runs, or `--native-host`, the pairing host a
// browser runs, each with no window and no tray; otherwise the tray app. Each mode loads only its own modules. main.ts
// calls it.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app } from 'electron';
import { NATIVE_HOST_FLAG } from '../core/pairing/host-wrapper.js';
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
  if (argv.includes(NATIVE_HOST_FLAG)) {
    const { runNativeHostProcess } = await import('./native-host-process.js');
    return runNativeHostProcess(argv);
  }
  const { runApp } = await import('./app.js');
  runApp(paths());
}

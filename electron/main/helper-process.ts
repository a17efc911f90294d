// The helper as a process: stdout belongs to MCP (see stdio-process.ts); no single-instance lock (many helpers run
// beside the one app); the exit code is the relay's.
import { app } from 'electron';
import { resolveDataDir } from '../core/config.js';
import { log } from '../core/log.js';
import type { AppPaths } from './app-paths.js';
import { appCommand, runHelper } from './helper-mode.js';
import { becomeStdioProcess } from './stdio-process.js';

export async function runHelperProcess(paths: AppPaths): Promise<void> {
  becomeStdioProcess();
  const code = await runHelper({
    dataDir: resolveDataDir(undefined),
    command: appCommand(process.execPath, paths.appPath, paths.isPackaged),
    input: process.stdin,
    output: process.stdout,
    log,
  }).catch((error: unknown) => {
    log(`helper failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  });
  app.exit(code);
}

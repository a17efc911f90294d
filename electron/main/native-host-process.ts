// --native-host: the browser runs the app binary (through the wrapper native-host-install.ts writes) for the extension's
// sendNativeMessage. The host is `chrome-mcp native-host` itself, given the arguments after the flag; run as the app,
// it needs no node (a packaged app cannot run as Node). Like the helper: no window, no tray, no single-instance lock.
import { app } from 'electron';
import { run } from '../helper/cli/native-host.js';
import { log } from '../core/log.js';
import { NATIVE_HOST_FLAG } from '../core/pairing/host-wrapper.js';
import { becomeStdioProcess } from './stdio-process.js';

export async function runNativeHostProcess(argv: readonly string[]): Promise<void> {
  becomeStdioProcess();
  // After the flag: the wrapper's --data-dir, then the browser's own (the caller's origin; on Windows --parent-window=N).
  const code = await run(argv.slice(argv.indexOf(NATIVE_HOST_FLAG) + 1)).catch((error: unknown) => {
    log(`native host failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  });
  app.exit(code);
}

// Debian Chromium started headless with unpacked extensions, through the product's own browser starter, with the
// test's CDP connection over the launch pipe: the one launcher the extension and native-messaging tests share.
import { startBrowserProcess } from '../../electron/core/fallback/browser-process.js';
import type { CdpConnection } from '../../electron/core/fallback/cdp-connection.js';
import { findBrowser } from '../../electron/core/fallback/find-browser.js';

export interface ChromiumProcess {
  control: CdpConnection;
  /** Kills the whole process group (helpers and any native host included) and waits for the browser to exit. */
  kill(): Promise<void>;
}

/** Starts Chromium on `profileDir` with `extensionDirs` loaded; `args` adds flags. */
export async function startChromium(
  profileDir: string,
  extensionDirs: string[],
  args: string[] = [],
): Promise<ChromiumProcess> {
  const executable = findBrowser(undefined);
  if (!executable) throw new Error('no Chromium to run the extension in');
  const list = extensionDirs.join(',');
  const browser = await startBrowserProcess(executable, [
    '--headless=new',
    `--load-extension=${list}`,
    `--disable-extensions-except=${list}`,
    `--user-data-dir=${profileDir}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-sandbox',
    '--disable-gpu',
    // Its own cookie key, never the keyring's: where a session bus runs one (CI's keychain tests), a locked or prompting
    // keyring would stall the browser's start.
    '--password-store=basic',
    ...args,
    'about:blank',
  ]);
  return { control: browser.connection, kill: browser.kill };
}

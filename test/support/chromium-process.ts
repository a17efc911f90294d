// Debian Chromium started without playwright, headless, with unpacked extensions and a browser-level CDP socket for the
// test: the one launcher the extension and native-messaging tests share.
import { spawn, type ChildProcess } from 'node:child_process';
import { CdpConnection } from '../../electron/core/fallback/cdp-connection.js';
import { findBrowser } from '../../electron/core/fallback/find-browser.js';

export interface ChromiumProcess {
  control: CdpConnection;
  /** Kills the whole process group (helpers and any native host included) and waits for the browser to exit. */
  kill(): Promise<void>;
}

/** Starts Chromium on `profileDir` with `extensionDirs` loaded; `args` adds flags. */
export async function startChromium(profileDir: string, extensionDirs: string[], args: string[] = []): Promise<ChromiumProcess> {
  const executable = findBrowser(undefined);
  if (!executable) throw new Error('no Chromium to run the extension in');
  const list = extensionDirs.join(',');
  // Its own process group, so killing it takes the helper processes too: left alone they keep writing to the profile.
  const child = spawn(executable, [
    '--headless=new', `--load-extension=${list}`, `--disable-extensions-except=${list}`, `--user-data-dir=${profileDir}`,
    '--remote-debugging-port=0', '--no-first-run', '--no-default-browser-check', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-sandbox', '--disable-gpu',
    // Its own cookie key, never the keyring's: where a session bus runs one (CI's keychain tests), a locked or prompting
    // keyring would stall the browser's start.
    '--password-store=basic',
    ...args,
    'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
  };
  try {
    return { control: await CdpConnection.connect(await devToolsUrl(child)), kill };
  } catch (error) {
    await kill();
    throw error;
  }
}

/** Chromium prints its browser endpoint on stderr once the debugging server listens. */
function devToolsUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(text);
      if (!match) return;
      child.stderr?.off('data', onData);
      // Keep draining stderr, or a chatty browser blocks on a full pipe.
      child.stderr?.resume();
      resolve(match[1]!);
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`Chromium exited (${code}) before listening: ${text.slice(-500)}`)));
  });
}

// Starts a Chromium we own and talks CDP to it over its launch pipe: ours is the only CDP client (nothing else can
// resume a paused popup before our guard is on), no debugging port is open for another local process to find, and
// the browser quits by itself when this process goes away, however it goes (the pipe closes with us).
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { ToolError } from '../../../shared/protocol/errors.js';
import { CdpConnection } from './cdp-connection.js';

export interface BrowserProcess {
  connection: CdpConnection;
  /** Settles once the browser's main process has exited. */
  exited: Promise<void>;
  /** Asks the browser to close (it saves the profile), then kills whatever of its process group is left. */
  close(): Promise<void>;
  /** Kills the whole process group at once (helpers included) and waits for the browser to exit. */
  kill(): Promise<void>;
}

/** The browser started but did not answer; `output` is the end of what it printed, to say why. */
export class BrowserStartError extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
  }
}

/** A browser that does not answer its first command in this long is stuck (a dialog, a dead display). */
const START_TIMEOUT_MS = 30_000;
/** How long a browser may take to close on request before it is killed. */
const CLOSE_GRACE_MS = 5_000;
const OUTPUT_KEPT = 4_000;

/** Runs `executable` with `args` plus the pipe flag (in `env`, default ours), and resolves once it answers CDP. */
export async function startBrowserProcess(
  executable: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<BrowserProcess> {
  // Its own process group, so a kill takes the renderers and GPU process too: left alone they keep writing to the profile.
  const child = spawn(executable, ['--remote-debugging-pipe', ...args], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    detached: true,
    env,
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    // Kept short and drained always: a chatty browser blocks on a full pipe.
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  // A binary that cannot run at all (missing, not executable) reports here rather than through exit.
  const failedToRun = new Promise<never>((_, reject) => child.once('error', reject));
  failedToRun.catch(() => undefined);
  const connection = CdpConnection.overPipe(child.stdio[3] as Writable, child.stdio[4] as Readable);

  const killGroup = () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  // A process that exits before the browser is closed (a stop's deadline passing, an uncaught exception) takes the
  // group with it: left to quit on its own once the pipe closes, a busy browser goes on writing the profile for
  // seconds after its server has gone, and whatever starts next on that profile meets it.
  process.once('exit', killGroup);
  void exited.then(() => process.off('exit', killGroup));
  const kill = async () => {
    killGroup();
    await exited;
    connection.close();
  };
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await connection.send('Browser.close').catch(() => undefined);
      await Promise.race([exited, sleep(CLOSE_GRACE_MS)]);
    }
    await kill();
  };

  try {
    await Promise.race([
      connection.send('Browser.getVersion'),
      failedToRun,
      sleep(START_TIMEOUT_MS).then(() => Promise.reject(new Error(`no answer in ${START_TIMEOUT_MS / 1000} s`))),
    ]);
  } catch (error) {
    await kill();
    const exitedEarly = error instanceof ToolError && error.code === 'BROWSER_CLOSED';
    const why = exitedEarly ? `it exited (${child.exitCode ?? child.signalCode})` : (error as Error).message;
    throw new BrowserStartError(`the browser did not start: ${why}`, output);
  }
  return { connection, exited, close, kill };
}

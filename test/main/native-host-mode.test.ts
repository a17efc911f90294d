// The app binary as the browser's native host, Electron faked and the host real: --native-host answers a pairing frame on
// the process's stdio with the secret it keeps in the data dir the wrapper names, and makes no window, tray or lock.
import type { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it, type Mock, vi } from 'vitest';
import { EXTENSION_ORIGIN } from '../../shared/protocol/extension-id.js';
import { DEFAULT_BRIDGE_PORT } from '../../shared/protocol/wire.js';
import { SecretStore } from '../../electron/core/pairing/secret-store.js';
import { tempDirs } from '../pairing/support/cli.js';
import { frame, replies } from '../pairing/support/framing.js';
import { FakeBrowserWindow, Tray, fakeElectron } from './support/fake-electron.js';

vi.mock('electron', () => fakeElectron());
vi.mock('electron-log/main', async () => ({ default: (await import('electron-log/node')).default }));

const electron = await import('electron');
const app = electron.app as unknown as EventEmitter &
  Record<'requestSingleInstanceLock' | 'exit' | 'whenReady' | 'disableHardwareAcceleration', Mock>;
const { main } = await import('../../electron/main/launch.js');

const dirs = tempDirs('app-host');
const consoleMethods = { ...console };
afterEach(() => {
  Object.assign(console, consoleMethods);
  vi.restoreAllMocks();
  vi.clearAllMocks();
});
afterAll(() => dirs.cleanup());

/**
 * main(argv) with the process's stdin and stdout swapped for pipes, as Chrome's are: writes `input`, closes stdin, and
 * returns once the host exited; `stdout()` is all it (or anything after it) wrote there.
 */
async function runAsHost(argv: string[], input: Buffer): Promise<{ stdout: () => Buffer; stderr: Mock }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const written: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => written.push(chunk));
  vi.spyOn(process, 'stdin', 'get').mockReturnValue(stdin as unknown as typeof process.stdin);
  vi.spyOn(process, 'stdout', 'get').mockReturnValue(stdout as unknown as typeof process.stdout);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  stdin.end(input);
  await main(argv);
  return { stdout: () => Buffer.concat(written), stderr: stderr as unknown as Mock };
}

describe('--native-host', () => {
  it('answers {type:"pairing"} on stdio with the secret it keeps in the wrapper\'s data dir, then exits 0, showing nothing', async () => {
    const dataDir = dirs.dataDir();
    const windows = FakeBrowserWindow.all.length;
    // As the app's wrapper runs it (unpackaged: Electron, the app folder), then Chrome's arguments (Windows adds --parent-window).
    const argv = [
      '/opt/electron',
      '/work/app',
      '--native-host',
      '--data-dir',
      dataDir,
      `${EXTENSION_ORIGIN}/`,
      '--parent-window=0',
    ];
    const { stdout } = await runAsHost(argv, frame('{"type":"pairing"}'));

    // Nothing but whole frames on stdout.
    const [reply] = replies(stdout()) as Array<{ secret: string; port: number }>;
    expect(reply).toEqual({ secret: expect.any(String), port: DEFAULT_BRIDGE_PORT });
    expect(reply!.secret).toBe((await new SecretStore(dataDir).read())?.secret);
    expect(app.exit).toHaveBeenCalledWith(0);

    expect(FakeBrowserWindow.all.length).toBe(windows);
    expect(Tray).not.toHaveBeenCalled();
    expect(app.requestSingleInstanceLock).not.toHaveBeenCalled();
    expect(app.whenReady).not.toHaveBeenCalled();
    expect(electron.protocol.registerSchemesAsPrivileged).not.toHaveBeenCalled();
    expect(app.disableHardwareAcceleration).toHaveBeenCalled();

    // Asked again, the same secret: the host keeps it, asking is not re-pairing.
    expect(replies((await runAsHost(argv, frame('{"type":"pairing"}'))).stdout())).toEqual([reply]);
  });

  it('honours a standing revoke as the CLI host does: {error:"revoked"}, and no secret made', async () => {
    const dataDir = dirs.dataDir();
    await new SecretStore(dataDir).revoke();
    const argv = ['/opt/electron', '/work/app', '--native-host', '--data-dir', dataDir, `${EXTENSION_ORIGIN}/`];
    const { stdout } = await runAsHost(argv, frame('{"type":"pairing"}'));
    expect(replies(stdout())).toEqual([{ error: 'revoked' }]);
    expect(new SecretStore(dataDir).location()).toBeUndefined();
    expect(app.exit).toHaveBeenCalledWith(0);
  });

  it('refuses a caller that is not our extension, and keeps console output off stdout', async () => {
    const dataDir = dirs.dataDir();
    const argv = [
      '/Applications/Chrome MCP.app/Contents/MacOS/Chrome MCP',
      '--native-host',
      '--data-dir',
      dataDir,
      'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/',
    ];
    const { stdout, stderr } = await runAsHost(argv, frame('{"type":"pairing"}'));
    expect(replies(stdout())).toEqual([{ error: 'origin_not_allowed' }]);
    expect(new SecretStore(dataDir).location()).toBeUndefined();
    expect(app.exit).toHaveBeenCalledWith(0);
    // Every console line goes to stderr: a chatty dependency cannot corrupt the frames.
    console.log('chatty dependency');
    expect(stderr).toHaveBeenCalledWith(expect.stringContaining('chatty dependency'));
    expect(stdout().toString()).not.toContain('chatty dependency');
  });
});

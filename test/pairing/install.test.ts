// install-native-host: the wrapper and manifests it writes (for real, as a process), where each browser gets one, and
// the Windows registry commands it would run (planned here, recorded, never run).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXTENSION_ORIGIN } from '../../shared/protocol/extension-id.js';
import { DEFAULT_BRIDGE_PORT } from '../../shared/protocol/wire.js';
import { applySteps } from '../../electron/helper/cli/install-native-host.js';
import { type InstallStep, planInstall } from '../../electron/helper/cli/install-plan.js';
import { BROWSERS, MANIFEST_FILE } from '../../electron/core/pairing/host-manifest.js';
import { hostWrapper } from '../../electron/core/pairing/host-wrapper.js';
import { CLI, runCli, tempDirs } from './support/cli.js';
import { frame, replies } from './support/framing.js';

const dirs = tempDirs('install');
afterAll(() => dirs.cleanup());

const mode = (path: string) => statSync(path).mode & 0o777;
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

const LINUX_DIRS = {
  chrome: '.config/google-chrome/NativeMessagingHosts',
  chromium: '.config/chromium/NativeMessagingHosts',
  edge: '.config/microsoft-edge/NativeMessagingHosts',
  brave: '.config/BraveSoftware/Brave-Browser/NativeMessagingHosts',
};

describe('install-native-host (real process)', () => {
  it('writes a 0700 wrapper in the 0700 data dir and a manifest pinned to our extension into --browser-data-dir', async () => {
    const dataDir = dirs.dataDir();
    const browserDir = dirs.make();
    const run = await runCli(['install-native-host', '--browser-data-dir', browserDir, '--data-dir', dataDir]);
    expect(run.code).toBe(0);
    const wrapperPath = join(dataDir, 'native-host', 'chrome-mcp-native-host');
    const manifestPath = join(browserDir, 'NativeMessagingHosts', MANIFEST_FILE);
    expect(run.stdout.toString()).toContain(`wrote     ${wrapperPath}\nwrote     ${manifestPath}\n`);
    expect(readJson(manifestPath)).toEqual({
      name: 'com.chrome_mcp.bridge',
      description: expect.any(String),
      path: wrapperPath,
      type: 'stdio',
      allowed_origins: [`${EXTENSION_ORIGIN}/`],
    });
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(wrapperPath)).toBe(0o700);
    expect(mode(manifestPath)).toBe(0o644);
    expect(readFileSync(wrapperPath, 'utf8')).toBe(
      `#!/bin/sh\n# Written by chrome-mcp install-native-host: Chrome runs this as the com.chrome_mcp.bridge native-messaging host.\nexec '${process.execPath}' '${CLI}' native-host --data-dir '${dataDir}' "$@"\n`,
    );

    // Idempotent: the same run again changes nothing and says so.
    const again = await runCli(['install-native-host', '--browser-data-dir', browserDir, '--data-dir', dataDir]);
    expect(again.stdout.toString()).toContain(`unchanged ${wrapperPath}\nunchanged ${manifestPath}\n`);

    // The wrapper is what the browser runs: it starts the host for this data dir.
    const reply = execFileSync(wrapperPath, [`${EXTENSION_ORIGIN}/`], { input: frame('{"type":"pairing"}') });
    expect(replies(reply)).toEqual([{ secret: expect.any(String), port: DEFAULT_BRIDGE_PORT }]);

    const removed = await runCli([
      'install-native-host',
      '--browser-data-dir',
      browserDir,
      '--data-dir',
      dataDir,
      '--remove',
    ]);
    expect(removed.stdout.toString()).toBe(`removed   ${manifestPath}\n`);
    expect(existsSync(wrapperPath)).toBe(true);
  });

  it('writes a manifest for each browser found in its Linux folder (or all four), and --remove takes them and at last the wrapper away', async () => {
    const home = dirs.make();
    const dataDir = dirs.dataDir();
    const env = { ...process.env, HOME: home };
    const wrapperPath = join(dataDir, 'native-host', 'chrome-mcp-native-host');
    const manifestIn = (browser: keyof typeof LINUX_DIRS) => join(home, LINUX_DIRS[browser], MANIFEST_FILE);
    // No browser profile here: Chrome's place, the likeliest browser to come.
    expect((await runCli(['install-native-host', '--data-dir', dataDir], { env })).stdout.toString()).toContain(
      `wrote     ${manifestIn('chrome')}\n`,
    );
    expect(existsSync(manifestIn('edge'))).toBe(false);
    mkdirSync(join(home, '.config', 'BraveSoftware', 'Brave-Browser'), { recursive: true });
    const found = await runCli(['install-native-host', '--data-dir', dataDir], { env });
    expect(found.stdout.toString()).toContain(`wrote     ${manifestIn('brave')}\n`);
    expect(existsSync(manifestIn('edge'))).toBe(false);

    expect((await runCli(['install-native-host', '--data-dir', dataDir, '--browser', 'all'], { env })).code).toBe(0);
    for (const browser of BROWSERS) expect(readJson(manifestIn(browser))).toMatchObject({ path: wrapperPath });

    const edgeOnly = await runCli(['install-native-host', '--data-dir', dataDir, '--browser', 'edge', '--remove'], {
      env,
    });
    expect(edgeOnly.stdout.toString()).toBe(`removed   ${manifestIn('edge')}\n`);
    expect(existsSync(wrapperPath)).toBe(true);

    const all = await runCli(['install-native-host', '--data-dir', dataDir, '--remove'], { env });
    expect(all.stdout.toString()).toBe(
      [...BROWSERS.filter((browser) => browser !== 'edge').map(manifestIn), wrapperPath]
        .map((path) => `removed   ${path}\n`)
        .join(''),
    );
    expect((await runCli(['install-native-host', '--data-dir', dataDir, '--remove'], { env })).stdout.toString()).toBe(
      'nothing to remove\n',
    );
  });

  it('refuses an unknown browser with its usage, exit 2', async () => {
    const run = await runCli(['install-native-host', '--browser', 'firefox', '--data-dir', dirs.dataDir()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown browser 'firefox'[\s\S]*Usage: chrome-mcp install-native-host/);
  });
});

describe('host wrapper quoting', () => {
  it("passes paths with spaces, quotes and $ through sh untouched, then the browser's own arguments", () => {
    const root = dirs.make();
    const odd = join(root, `it's a "dir" $HOME \`x\``);
    mkdirSync(odd, { recursive: true });
    // Stands in for node: prints each argument on its own line.
    const echo = join(odd, 'echo args');
    writeFileSync(echo, '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n');
    chmodSync(echo, 0o755);
    const wrapper = hostWrapper({
      platform: 'linux',
      dataDir: join(odd, 'data'),
      node: echo,
      cli: join(odd, 'cli.js'),
    });
    mkdirSync(join(odd, 'data', 'native-host'), { recursive: true });
    writeFileSync(wrapper.path, wrapper.text, { mode: 0o700 });
    const printed = execFileSync(wrapper.path, ['chrome-extension://x/', '--parent-window=0'], { encoding: 'utf8' });
    expect(printed.split('\n').slice(0, -1)).toEqual([
      join(odd, 'cli.js'),
      'native-host',
      '--data-dir',
      join(odd, 'data'),
      'chrome-extension://x/',
      '--parent-window=0',
    ]);
  });

  it('on Windows is a .cmd that doubles % and passes %*', () => {
    const wrapper = hostWrapper({
      platform: 'win32',
      dataDir: 'C:\\Users\\a%b\\.chrome-mcp',
      node: 'C:\\node\\node.exe',
      cli: 'C:\\cm\\cli.js',
    });
    expect(wrapper.path).toBe('C:\\Users\\a%b\\.chrome-mcp\\native-host\\chrome-mcp-native-host.cmd');
    expect(wrapper.text).toMatch(/^@echo off\r\n/);
    expect(wrapper.text).toContain(
      '"C:\\node\\node.exe" "C:\\cm\\cli.js" native-host --data-dir "C:\\Users\\a%%b\\.chrome-mcp" %*\r\n',
    );
  });
});

describe('install plan per platform', () => {
  const base = { home: '/Users/p', node: '/n/node', cli: '/c/cli.js', browsers: BROWSERS, remove: false };

  it("macOS: each browser's Application Support folder", () => {
    const steps = planInstall({ ...base, platform: 'darwin', dataDir: '/Users/p/.chrome-mcp' });
    expect(steps.filter((step) => step.kind === 'write').map((step) => step.path)).toEqual([
      '/Users/p/.chrome-mcp/native-host/chrome-mcp-native-host',
      `/Users/p/Library/Application Support/Google/Chrome/NativeMessagingHosts/${MANIFEST_FILE}`,
      `/Users/p/Library/Application Support/Chromium/NativeMessagingHosts/${MANIFEST_FILE}`,
      `/Users/p/Library/Application Support/Microsoft Edge/NativeMessagingHosts/${MANIFEST_FILE}`,
      `/Users/p/Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts/${MANIFEST_FILE}`,
    ]);
  });

  it('Windows: one manifest beside the wrapper and an HKCU key per browser naming it; removal deletes the keys', () => {
    const windows = { ...base, platform: 'win32' as const, home: 'C:\\Users\\p', dataDir: 'C:\\Users\\p\\.chrome-mcp' };
    const manifest = `C:\\Users\\p\\.chrome-mcp\\native-host\\${MANIFEST_FILE}`;
    const steps = planInstall(windows);
    expect(steps.filter((step) => step.kind === 'write').map((step) => step.path)).toEqual([
      'C:\\Users\\p\\.chrome-mcp\\native-host\\chrome-mcp-native-host.cmd',
      manifest,
    ]);

    const recorded: string[] = [];
    const commands = (list: InstallStep[]) => list.filter((step) => step.kind === 'command');
    applySteps(commands(steps), (file, args) => recorded.push([file, ...args].join(' ')));
    expect(recorded).toEqual([
      `reg add HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.chrome_mcp.bridge /ve /t REG_SZ /d ${manifest} /f`,
      `reg add HKCU\\Software\\Chromium\\NativeMessagingHosts\\com.chrome_mcp.bridge /ve /t REG_SZ /d ${manifest} /f`,
      `reg add HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.chrome_mcp.bridge /ve /t REG_SZ /d ${manifest} /f`,
      `reg add HKCU\\Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts\\com.chrome_mcp.bridge /ve /t REG_SZ /d ${manifest} /f`,
    ]);

    recorded.length = 0;
    const removal = planInstall({ ...windows, browsers: ['chrome'], remove: true });
    // Deleting a key that is not there fails in `reg`; removal is idempotent all the same.
    expect(() =>
      applySteps(commands(removal), (file, args) => {
        recorded.push([file, ...args].join(' '));
        throw new Error('ERROR: The system was unable to find the specified registry key or value.');
      }),
    ).not.toThrow();
    expect(recorded).toEqual([
      'reg delete HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.chrome_mcp.bridge /f',
    ]);
    // The other browsers' keys still name the one manifest: it stays until they all go.
    expect(removal.filter((step) => step.kind === 'remove')).toEqual([]);
    expect(
      planInstall({ ...windows, remove: true })
        .filter((step) => step.kind === 'remove')
        .map((step) => step.path),
    ).toEqual([manifest, 'C:\\Users\\p\\.chrome-mcp\\native-host\\chrome-mcp-native-host.cmd']);
    expect(() =>
      applySteps(commands(steps), () => {
        throw new Error('access denied');
      }),
    ).toThrow('access denied');
  });
});

// The native host wrapper when the app writes it: the app's binary in --native-host mode instead of node and the CLI
// (text and paths on each platform, run for real through sh), and reading a wrapper back to the command it runs.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applySteps } from '../../electron/helper/cli/install-native-host.js';
import { planInstall } from '../../electron/helper/cli/install-plan.js';
import { BROWSERS, MANIFEST_FILE } from '../../electron/core/pairing/host-manifest.js';
import { hostWrapper, wrapperCommand } from '../../electron/core/pairing/host-wrapper.js';
import { tempDirs } from './support/cli.js';

const dirs = tempDirs('app-wrapper');
afterAll(() => dirs.cleanup());

const NOTE =
  'Written by chrome-mcp install-native-host: Chrome runs this as the com.chrome_mcp.bridge native-messaging host.';
const APP_MAC = '/Applications/Chrome MCP.app/Contents/MacOS/Chrome MCP';
const APP_WIN = 'C:\\Users\\p\\AppData\\Local\\Programs\\Chrome MCP\\Chrome MCP.exe';

const writes = (steps: ReturnType<typeof planInstall>) =>
  steps.flatMap((step) => (step.kind === 'write' ? [step] : []));

describe('install plan with the app as the host', () => {
  const base = { browsers: BROWSERS, remove: false };

  it('Linux: the wrapper execs the app binary with --native-host, and every manifest names the wrapper', () => {
    const steps = planInstall({
      ...base,
      platform: 'linux',
      home: '/home/p',
      dataDir: '/home/p/.chrome-mcp',
      command: ['/opt/Chrome MCP/chrome-mcp-app', '--native-host'],
    });
    const [wrapper, ...manifests] = writes(steps);
    expect(wrapper).toEqual({
      kind: 'write',
      path: '/home/p/.chrome-mcp/native-host/chrome-mcp-native-host',
      text: `#!/bin/sh\n# ${NOTE}\nexec '/opt/Chrome MCP/chrome-mcp-app' --native-host --data-dir '/home/p/.chrome-mcp' "$@"\n`,
      mode: 0o700,
    });
    expect(manifests.map((step) => step.path)).toEqual([
      `/home/p/.config/google-chrome/NativeMessagingHosts/${MANIFEST_FILE}`,
      `/home/p/.config/chromium/NativeMessagingHosts/${MANIFEST_FILE}`,
      `/home/p/.config/microsoft-edge/NativeMessagingHosts/${MANIFEST_FILE}`,
      `/home/p/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts/${MANIFEST_FILE}`,
    ]);
    for (const manifest of manifests)
      expect(JSON.parse(manifest.text)).toMatchObject({ path: wrapper!.path, type: 'stdio' });
  });

  it("macOS: the bundle's executable, quoted for its spaces; an unpackaged app names Electron and the app folder", () => {
    const steps = planInstall({
      ...base,
      platform: 'darwin',
      home: '/Users/p',
      dataDir: '/Users/p/.chrome-mcp',
      command: [APP_MAC, '--native-host'],
    });
    expect(writes(steps).map((step) => step.path)).toEqual([
      '/Users/p/.chrome-mcp/native-host/chrome-mcp-native-host',
      ...['Google/Chrome', 'Chromium', 'Microsoft Edge', 'BraveSoftware/Brave-Browser'].map(
        (root) => `/Users/p/Library/Application Support/${root}/NativeMessagingHosts/${MANIFEST_FILE}`,
      ),
    ]);
    expect(writes(steps)[0]!.text).toBe(
      `#!/bin/sh\n# ${NOTE}\nexec '${APP_MAC}' --native-host --data-dir '/Users/p/.chrome-mcp' "$@"\n`,
    );
    const unpackaged = hostWrapper({
      platform: 'darwin',
      dataDir: '/Users/p/.chrome-mcp',
      command: ['/w/node_modules/electron/dist/Electron.app/Contents/MacOS/Electron', '/w/chrome-mcp', '--native-host'],
    });
    expect(unpackaged.text).toContain(
      `exec '/w/node_modules/electron/dist/Electron.app/Contents/MacOS/Electron' '/w/chrome-mcp' --native-host --data-dir '/Users/p/.chrome-mcp' "$@"\n`,
    );
  });

  it('Windows: a .cmd running the .exe, beside the one manifest the registry keys name', () => {
    const steps = planInstall({
      ...base,
      platform: 'win32',
      home: 'C:\\Users\\p',
      dataDir: 'C:\\Users\\p\\.chrome-mcp',
      command: [APP_WIN, '--native-host'],
    });
    expect(writes(steps).map((step) => step.path)).toEqual([
      'C:\\Users\\p\\.chrome-mcp\\native-host\\chrome-mcp-native-host.cmd',
      `C:\\Users\\p\\.chrome-mcp\\native-host\\${MANIFEST_FILE}`,
    ]);
    expect(writes(steps)[0]!.text).toBe(
      `@echo off\r\nrem ${NOTE}\r\n"${APP_WIN}" --native-host --data-dir "C:\\Users\\p\\.chrome-mcp" %*\r\n`,
    );
    expect(steps.filter((step) => step.kind === 'command')).toHaveLength(BROWSERS.length);
  });

  it("the CLI's command written out is the CLI's wrapper, byte for byte", () => {
    for (const platform of ['linux', 'win32'] as const) {
      const dataDir = platform === 'win32' ? 'C:\\d' : '/d';
      expect(hostWrapper({ platform, dataDir, command: ['/n/node', '/c/cli.js', 'native-host'] })).toEqual(
        hostWrapper({ platform, dataDir, node: '/n/node', cli: '/c/cli.js' }),
      );
    }
  });
});

describe('the app wrapper as the browser runs it', () => {
  it("passes the data dir, then the browser's arguments, to the app binary (a path with a quote, spaces and $)", () => {
    const root = dirs.make();
    const odd = join(root, `Chrome MCP's $HOME "app"`);
    mkdirSync(odd, { recursive: true });
    // Stands in for the app binary: prints each argument on its own line.
    const app = join(odd, 'Chrome MCP');
    writeFileSync(app, '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n');
    chmodSync(app, 0o755);
    const dataDir = join(odd, 'data');
    applySteps(
      planInstall({
        platform: 'linux',
        home: root,
        dataDir,
        command: [app, '--native-host'],
        browsers: ['chromium'],
        remove: false,
      }),
    );
    const wrapper = join(dataDir, 'native-host', 'chrome-mcp-native-host');
    expect(
      JSON.parse(readFileSync(join(root, '.config', 'chromium', 'NativeMessagingHosts', MANIFEST_FILE), 'utf8')),
    ).toMatchObject({ path: wrapper });
    const printed = execFileSync(wrapper, ['chrome-extension://x/', '--parent-window=0'], { encoding: 'utf8' });
    expect(printed.split('\n').slice(0, -1)).toEqual([
      '--native-host',
      '--data-dir',
      dataDir,
      'chrome-extension://x/',
      '--parent-window=0',
    ]);
  });
});

describe('reading a wrapper back', () => {
  it('gives the command it runs, for the app and the CLI, on POSIX and Windows', () => {
    const cases = [
      { platform: 'linux' as const, dataDir: `/h/it's $x`, command: [`/opt/a 'b'/app`, '--native-host'] as const },
      {
        platform: 'linux' as const,
        dataDir: '/h/.chrome-mcp',
        command: ['/usr/bin/node', '/c/cli.js', 'native-host'] as const,
      },
      {
        platform: 'darwin' as const,
        dataDir: '/Users/p/.chrome-mcp',
        command: ['/e/Electron', '/w/app', '--native-host'] as const,
      },
      {
        platform: 'win32' as const,
        dataDir: 'C:\\Users\\100%\\.chrome-mcp',
        command: [APP_WIN, '--native-host'] as const,
      },
    ];
    for (const { platform, dataDir, command } of cases) {
      const { text } = hostWrapper({ platform, dataDir, command });
      expect(wrapperCommand({ platform, dataDir, text })).toEqual(command);
    }
  });

  it("gives nothing for an edited wrapper, another data dir's, or a script of someone else's", () => {
    const { text } = hostWrapper({ platform: 'linux', dataDir: '/h/d', command: ['/opt/app', '--native-host'] });
    expect(wrapperCommand({ platform: 'linux', dataDir: '/h/other', text })).toBeUndefined();
    expect(
      wrapperCommand({ platform: 'linux', dataDir: '/h/d', text: text.replace('# Written', '# Edited') }),
    ).toBeUndefined();
    expect(
      wrapperCommand({ platform: 'linux', dataDir: '/h/d', text: text.replace("'/opt/app'", '/opt/app') }),
    ).toBeUndefined();
    expect(
      wrapperCommand({ platform: 'linux', dataDir: '/h/d', text: '#!/bin/sh\nexec /old/node /old/cli.js "$@"\n' }),
    ).toBeUndefined();
    expect(wrapperCommand({ platform: 'win32', dataDir: '/h/d', text })).toBeUndefined();
  });
});

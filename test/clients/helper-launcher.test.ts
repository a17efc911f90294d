// The helper launcher: its text on each OS, its 0700 mode, quoting that survives odd paths, rewriting only on change,
// and that it really starts chrome-mcp.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { helperLauncher, writeHelperLauncher } from '../../electron/core/clients/helper-launcher.js';
import { VERSION } from '../../electron/core/version.js';
import { CLI, tempDirs } from './support.js';

const dirs = tempDirs('launcher');
afterAll(() => dirs.cleanup());

const mode = (path: string) => statSync(path).mode & 0o777;
const NOTE =
  'Written by chrome-mcp: MCP clients run this to start the chrome-mcp helper. It is rewritten when chrome-mcp moves.';

describe.skipIf(process.platform === 'win32')('helper launcher', () => {
  it("is a 0700 sh script in a 0700 DATA/bin that execs the command, then the client's arguments", () => {
    const dataDir = join(dirs.make(), 'data');
    const path = writeHelperLauncher(dataDir, [
      '/Applications/Chrome MCP.app/Contents/MacOS/Chrome MCP',
      '--mcp-helper',
    ]);
    expect(path).toBe(join(dataDir, 'bin', 'chrome-mcp-helper'));
    expect(readFileSync(path, 'utf8')).toBe(
      `#!/bin/sh\n# ${NOTE}\nexec '/Applications/Chrome MCP.app/Contents/MacOS/Chrome MCP' '--mcp-helper' "$@"\n`,
    );
    expect(mode(path)).toBe(0o700);
    expect(mode(join(dataDir, 'bin'))).toBe(0o700);
    expect(mode(dataDir)).toBe(0o700);
  });

  it('rewrites only when the command changed (or its mode was lost)', () => {
    const dataDir = join(dirs.make(), 'data');
    const path = writeHelperLauncher(dataDir, ['/a/node', '/a/cli.js']);
    const { ino, mtimeMs } = statSync(path);
    writeHelperLauncher(dataDir, ['/a/node', '/a/cli.js']);
    expect(statSync(path)).toMatchObject({ ino, mtimeMs });
    chmodSync(path, 0o644);
    writeHelperLauncher(dataDir, ['/a/node', '/a/cli.js']);
    expect(mode(path)).toBe(0o700);
    writeHelperLauncher(dataDir, ['/b/node', '/b/cli.js']);
    expect(readFileSync(path, 'utf8')).toContain(`exec '/b/node' '/b/cli.js' "$@"`);
  });

  it('passes paths with spaces, quotes, $ and backquotes through sh untouched', () => {
    const odd = join(dirs.make(), `it's a "dir" $HOME \`x\``);
    mkdirSync(odd, { recursive: true });
    // Stands in for the app: prints each argument on its own line.
    const echo = join(odd, 'echo args');
    writeFileSync(echo, '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n');
    chmodSync(echo, 0o755);
    const path = writeHelperLauncher(join(odd, 'data'), [echo, '--mcp-helper', 'a b', "c'd"]);
    const printed = execFileSync(path, ['--headless', '$PATH'], { encoding: 'utf8' });
    expect(printed.split('\n').slice(0, -1)).toEqual(['--mcp-helper', 'a b', "c'd", '--headless', '$PATH']);
  });

  it('starts the real chrome-mcp', () => {
    const path = writeHelperLauncher(join(dirs.make(), 'data'), [process.execPath, CLI]);
    expect(execFileSync(path, ['--version'], { encoding: 'utf8' })).toBe(`${VERSION}\n`);
  });
});

describe('helper launcher on Windows', () => {
  it('is a .cmd in DATA\\bin that doubles % and passes %*', () => {
    const launcher = helperLauncher(
      'C:\\Users\\a%b\\.chrome-mcp',
      ['C:\\Program Files\\Chrome MCP\\Chrome MCP.exe', '--mcp-helper'],
      'win32',
    );
    expect(launcher.path).toBe('C:\\Users\\a%b\\.chrome-mcp\\bin\\chrome-mcp-helper.cmd');
    expect(launcher.text).toBe(
      `@echo off\r\nrem ${NOTE}\r\n"C:\\Program Files\\Chrome MCP\\Chrome MCP.exe" "--mcp-helper" %*\r\n`,
    );
  });
});

// Flags and environment → configuration: defaults, overrides, display detection, and the exits for help and bad flags.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliOutcome, type Config, parseCli, USAGE } from '../../electron/core/config.js';
import { VERSION } from '../../electron/core/version.js';

function config(outcome: CliOutcome): Config {
  if (outcome.kind !== 'run') throw new Error(`expected a run, got exit ${outcome.code}: ${outcome.stderr ?? ''}`);
  return outcome.config;
}

describe('parseCli', () => {
  it('defaults to ~/.chrome-mcp with the profile inside it, headless without a display', () => {
    expect(config(parseCli([], {}, 'linux'))).toEqual({
      headless: true,
      executablePath: undefined,
      dataDir: join(homedir(), '.chrome-mcp'),
      profileDir: join(homedir(), '.chrome-mcp', 'fallback-profile'),
      browser: 'auto',
      port: 38017,
      grants: { allow: [], trust: [] },
      policyFile: join(homedir(), '.chrome-mcp', 'policy.json'),
      policyFileRequired: false,
      controlPort: 0,
      browserArgs: [],
      caps: [],
      files: {
        uploads: [join(homedir(), '.chrome-mcp', 'uploads')],
        downloads: join(homedir(), '.chrome-mcp', 'downloads'),
      },
    });
  });

  it('takes --caps as a list of opt-in capabilities, each once, and refuses a name that is not one', () => {
    expect(config(parseCli(['--caps', 'files,extra', '--caps', 'files'], {}, 'linux')).caps).toEqual([
      'files',
      'extra',
    ]);
    const outcome = parseCli(['--caps', 'files,everything'], {}, 'linux');
    expect(outcome).toMatchObject({ kind: 'exit', code: 2 });
    expect(outcome.kind === 'exit' && outcome.stderr).toContain(
      '--caps takes files, devtools, extra, not "everything"',
    );
  });

  it('takes uploads from DATA_DIR/uploads and each --upload-dir, and saves downloads in DATA_DIR/downloads', () => {
    const { files } = config(
      parseCli(['--data-dir', '/d', '--upload-dir', 'rel', '--upload-dir', '/abs'], {}, 'linux'),
    );
    expect(files).toEqual({ uploads: ['/d/uploads', resolve('rel'), '/abs'], downloads: '/d/downloads' });
  });

  it('passes --browser-arg flags to the fallback browser, and refuses one that is no flag or is ours to set', () => {
    expect(
      config(parseCli(['--browser-arg=--lang=fr', '--browser-arg=--window-size=800,600'], {}, 'linux')).browserArgs,
    ).toEqual(['--lang=fr', '--window-size=800,600']);
    for (const bad of ['lang=fr', '--user-data-dir=/tmp/x', '--remote-debugging-pipe']) {
      const outcome = parseCli([`--browser-arg=${bad}`], {}, 'linux');
      expect(outcome).toMatchObject({ kind: 'exit', code: 2 });
      expect(outcome.kind === 'exit' && outcome.stderr).toContain(`not "${bad}"`);
    }
  });

  it('takes one-run grants from repeated --allow and --trust, and a policy file that must then exist', () => {
    const parsed = config(
      parseCli(
        [
          '--allow',
          'a.example,b.example',
          '--allow',
          'c.example',
          '--trust',
          'localhost:3000',
          '--policy',
          'rules.json',
        ],
        {},
        'linux',
      ),
    );
    expect(parsed.grants).toEqual({ allow: ['a.example,b.example', 'c.example'], trust: ['localhost:3000'] });
    expect(parsed).toMatchObject({ policyFile: resolve('rules.json'), policyFileRequired: true });
  });

  it('refuses a grant that is not a site before anything starts, naming the flag', () => {
    const outcome = parseCli(['--allow', 'https://bank.example/login'], {}, 'linux');
    expect(outcome).toMatchObject({ kind: 'exit', code: 2 });
    expect(outcome.kind === 'exit' && outcome.stderr).toContain(
      '--allow: "https://bank.example/login": a rule names a site, not a page',
    );
    expect(parseCli(['--trust', '*'], {}, 'linux')).toMatchObject({ kind: 'exit', code: 2 });
    expect(parseCli(['--control-port', '70000'], {}, 'linux')).toMatchObject({ kind: 'exit', code: 2 });
  });

  it('is headed when a display is available, unless --headless', () => {
    expect(config(parseCli([], { DISPLAY: ':0' }, 'linux')).headless).toBe(false);
    expect(config(parseCli([], { WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).headless).toBe(false);
    expect(config(parseCli([], {}, 'darwin')).headless).toBe(false);
    expect(config(parseCli([], {}, 'win32')).headless).toBe(false);
    expect(config(parseCli(['--headless'], { DISPLAY: ':0' }, 'linux')).headless).toBe(true);
  });

  it('takes the browser and data dir from flags over the environment, resolving relative paths', () => {
    const env = { CHROME_MCP_CHROMIUM: '/env/chrome', CHROME_MCP_DATA: '/env/data' };
    expect(config(parseCli([], env, 'linux'))).toMatchObject({
      executablePath: '/env/chrome',
      dataDir: '/env/data',
      profileDir: '/env/data/fallback-profile',
    });
    const flagged = config(parseCli(['--executable-path', '/flag/chrome', '--data-dir', 'rel'], env, 'linux'));
    expect(flagged).toMatchObject({ executablePath: '/flag/chrome', dataDir: resolve('rel') });
  });

  it('treats empty variables as unset', () => {
    expect(config(parseCli([], { CHROME_MCP_CHROMIUM: '', CHROME_MCP_DATA: '' }, 'linux'))).toMatchObject({
      executablePath: undefined,
      dataDir: join(homedir(), '.chrome-mcp'),
    });
  });

  it('answers --help and --version on stdout and exits 0', () => {
    expect(parseCli(['--help'])).toEqual({ kind: 'exit', code: 0, stdout: USAGE });
    expect(parseCli(['--version'])).toEqual({ kind: 'exit', code: 0, stdout: `${VERSION}\n` });
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('takes the backend choice and the bridge port, 0 meaning any free port', () => {
    expect(config(parseCli(['--browser', 'extension', '--port', '0'], {}, 'linux'))).toMatchObject({
      browser: 'extension',
      port: 0,
    });
    expect(config(parseCli(['--browser', 'fallback', '--port', '40000'], {}, 'linux'))).toMatchObject({
      browser: 'fallback',
      port: 40000,
    });
  });

  it('rejects an unknown flag, a stray argument, a missing value, a bad mode or port on stderr with exit 2', () => {
    for (const argv of [
      ['--bogus'],
      ['extra'],
      ['--data-dir'],
      ['--browser', 'firefox'],
      ['--port', '70000'],
      ['--port', 'x'],
    ]) {
      const outcome = parseCli(argv);
      expect(outcome).toMatchObject({ kind: 'exit', code: 2 });
      expect(outcome.kind === 'exit' && outcome.stderr).toMatch(/^chrome-mcp: .+\n\nUsage: chrome-mcp/);
    }
  });
});

// The tray app's settings file on a real temp folder: the defaults when there is none, a setting that survives a
// restart, and a corrupt or foreign file read as the defaults rather than stopping the app.
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, readSettings, settingsFile, writeSettings } from '../../electron/main/settings.js';
import { removeDir } from '../support/remove-dir.js';

const scratch = mkdtempSync(join(tmpdir(), 'cm-settings-'));
afterAll(() => removeDir(scratch));

const freshFile = (): string => settingsFile(mkdtempSync(join(scratch, 'case-')));

describe('app settings', () => {
  it('are the defaults when no file was written (browser windows shown)', () => {
    const file = freshFile();
    expect(readSettings(file)).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS.showBrowser).toBe(true);
  });

  it('survive a restart, in a file only this user reads', () => {
    const file = freshFile();
    writeSettings(file, { showBrowser: false });
    expect(readSettings(file)).toEqual({ showBrowser: false });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ showBrowser: false });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    writeSettings(file, { showBrowser: true });
    expect(readSettings(file)).toEqual({ showBrowser: true });
  });

  it('fall back to the defaults for a corrupt file, a wrong type, or a folder in its place', () => {
    for (const text of ['{"showBrowser": fal', '', 'null', '[]', '{"showBrowser": "no"}']) {
      const file = freshFile();
      writeFileSync(file, text);
      expect(readSettings(file), text).toEqual(DEFAULT_SETTINGS);
    }
    const folder = freshFile();
    mkdirSync(folder);
    expect(readSettings(folder)).toEqual(DEFAULT_SETTINGS);
  });

  it('fill what an older file lacks from the defaults, and ignore keys they do not know', () => {
    const file = freshFile();
    writeFileSync(file, '{"future": 1}');
    expect(readSettings(file)).toEqual(DEFAULT_SETTINGS);
    writeFileSync(file, '{"showBrowser": false, "future": 1}');
    expect(readSettings(file)).toEqual({ showBrowser: false });
  });

  it('never hand out the shared defaults object to be changed', () => {
    const read = readSettings(freshFile());
    read.showBrowser = false;
    expect(DEFAULT_SETTINGS.showBrowser).toBe(true);
  });
});

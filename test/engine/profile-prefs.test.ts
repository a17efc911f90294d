// The fallback profile's "Preload pages" preference: off before every launch, on a new profile or one the browser kept,
// with the rest of the profile's prefs as they were.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../electron/core/fallback/launch.js';
import { turnOffPreloading } from '../../electron/core/fallback/profile-prefs.js';
import { removeDir } from '../support/remove-dir.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function profile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chrome-mcp-prefs-'));
  dirs.push(dir);
  return dir;
}

const prefsOf = (dir: string): Record<string, Record<string, unknown>> =>
  JSON.parse(readFileSync(join(dir, 'Default', 'Preferences'), 'utf8')) as Record<string, Record<string, unknown>>;

describe('turnOffPreloading', () => {
  it('sets the preference on a new profile', () => {
    const dir = profile();
    turnOffPreloading(dir);
    expect(prefsOf(dir)).toEqual({ net: { network_prediction_options: 2 } });
  });

  it('keeps every other pref of a profile that has some', () => {
    const dir = profile();
    mkdirSync(join(dir, 'Default'));
    const kept = { browser: { has_seen_welcome_page: true }, net: { network_prediction_options: 1, other: 'x' } };
    writeFileSync(join(dir, 'Default', 'Preferences'), JSON.stringify(kept));
    turnOffPreloading(dir);
    expect(prefsOf(dir)).toEqual({ ...kept, net: { network_prediction_options: 2, other: 'x' } });
  });

  it('stays off in the prefs the browser writes back', async () => {
    const dir = profile();
    const browser = await launchBrowser({ headless: true, profileDir: dir, log: () => undefined });
    await browser.close();
    const prefs = prefsOf(dir);
    expect(prefs['net']?.['network_prediction_options']).toBe(2);
    // Chromium wrote the file itself: more than the one pref the launch put there.
    expect(Object.keys(prefs).length).toBeGreaterThan(1);
  });
});

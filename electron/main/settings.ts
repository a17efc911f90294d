// The tray app's own settings (not the site policy): a small JSON file in the app's data folder, read at start and
// written when the person flips a tray checkbox. A missing or broken file means the defaults.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../core/pairing/private-files.js';

const SettingsSchema = z.object({
  /** Show the windows of the app's own browser while the agent uses it (the person can watch), or keep them hidden. */
  showBrowser: z.boolean(),
});
export type AppSettings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: AppSettings = { showBrowser: true };

export function settingsFile(dir: string): string {
  return join(dir, 'app-settings.json');
}

export function readSettings(file: string): AppSettings {
  try {
    return { ...DEFAULT_SETTINGS, ...SettingsSchema.partial().parse(JSON.parse(readFileSync(file, 'utf8'))) };
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

export function writeSettings(file: string, settings: AppSettings): void {
  writeFileAtomic(file, `${JSON.stringify(settings, null, 2)}\n`, 0o600);
}

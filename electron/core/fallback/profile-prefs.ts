// Sets the fallback profile's "Preload pages" preference to off before the browser starts, keeping the rest of its prefs.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Chromium's `prefetch::NetworkPredictionOptions::kDisabled` under `net.network_prediction_options`. */
const NO_PRELOADING = 2;

/**
 * A speculation rule's prefetch or prerender is sent by the browser, not the page: neither the tab's nor the browser's
 * Fetch pauses it, and no Network rule (blocked URLs, offline conditions) reaches it (measured on Chromium 150). A
 * script of the agent's could add one for another origin carrying page data, so the fallback browser does not preload
 * at all; pages work the same without it, only slower to open a link.
 */
export function turnOffPreloading(profileDir: string): void {
  const dir = join(profileDir, 'Default');
  const file = join(dir, 'Preferences');
  const prefs = readPrefs(file);
  const net =
    typeof prefs['net'] === 'object' && prefs['net'] !== null ? (prefs['net'] as Record<string, unknown>) : {};
  if (net['network_prediction_options'] === NO_PRELOADING) return;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(file, JSON.stringify({ ...prefs, net: { ...net, network_prediction_options: NO_PRELOADING } }));
}

/** The profile's prefs; none (a new profile) or unreadable ones start empty, as Chromium itself would. */
function readPrefs(file: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

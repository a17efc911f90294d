// A second extension, installed after ours, that holds Chrome's "Preload pages" on (as a policy of the person's would)
// or off (as a content blocker's "disable prefetching" does): the setting is then `controlled_by_other_extensions` for
// ours, whose set resolves and changes nothing (measured on Chromium 150).
import { createHash } from 'node:crypto';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExtensionBrowser } from '../../support/extension-browser.js';
import { removeDir } from '../../support/remove-dir.js';

// Its worker may have gone idle by the time the test wants it to let go: a message from ours starts it again.
const worker = (value: boolean) => `const setting = chrome.privacy.network.networkPredictionEnabled;
setting.set({ value: ${value} });
chrome.runtime.onMessageExternal.addListener((message, sender, reply) => {
  setting.clear({}).then(() => reply(true));
  return true;
});
`;

export interface PreloadingHeld {
  /** The unpacked folder, for `startExtensionBrowser`'s `extensions`. */
  dir: string;
  /** That extension lets go of the setting, as a lifted policy would; resolves once it has. */
  letGo(browser: ExtensionBrowser): Promise<void>;
  remove(): void;
}

/** `value`: what the extension holds the setting at. */
export function preloadingHeldExtension(value: boolean): PreloadingHeld {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'chrome-mcp-preloading-held-')));
  const manifest = { manifest_version: 3, name: 'Preloading held', version: '1', permissions: ['privacy'] };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, background: { service_worker: 'on.js' } }));
  writeFileSync(join(dir, 'on.js'), worker(value));
  return {
    dir,
    letGo: (browser) => browser.evaluate(`chrome.runtime.sendMessage(${JSON.stringify(unpackedId(dir))}, 'let go')`),
    remove: () => removeDir(dir),
  };
}

/** Chrome's id for an unpacked extension: its folder's path hashed, the first 32 hex digits written as a to p. */
function unpackedId(dir: string): string {
  const hex = createHash('sha256').update(dir).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode(97 + parseInt(digit, 16))).join('');
}

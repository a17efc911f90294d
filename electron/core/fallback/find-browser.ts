// Finds a Chrome or Chromium to launch: explicit path, then CHROME_MCP_CHROMIUM, then the usual install places.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

function candidatePaths(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'darwin') {
    return [
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary',
    ];
  }
  if (platform === 'win32') {
    const roots = [env['PROGRAMFILES'], env['PROGRAMFILES(X86)'], env['LOCALAPPDATA']].filter(
      (root): root is string => !!root,
    );
    return roots.flatMap((root) => [
      join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'),
      join(root, 'Chromium', 'Application', 'chrome.exe'),
    ]);
  }
  return [
    '/usr/bin/google-chrome-stable',
    '/usr/bin/google-chrome',
    '/opt/google/chrome/chrome',
    // Debian's /usr/bin/chromium is a shell wrapper that rewrites flags; the real binary takes them as given.
    '/usr/lib/chromium/chromium',
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
  ];
}

export function findBrowser(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string | undefined {
  const chosen = explicit ?? env['CHROME_MCP_CHROMIUM'];
  if (chosen) return chosen;
  return candidatePaths(platform, env).find((path) => existsSync(path));
}

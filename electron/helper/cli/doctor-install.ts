// doctor, part one: is the extension built, and does each browser find a native host that runs this chrome-mcp (or the
// Chrome MCP app, which installs its own)?
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  ALLOWED_ORIGINS,
  BROWSERS,
  manifestPathIn,
  profileRoot,
  windowsManifestPath,
} from '../../core/pairing/host-manifest.js';
import { hostWrapper, NATIVE_HOST_FLAG, wrapperCommand } from '../../core/pairing/host-wrapper.js';
import type { Finding } from './doctor-finding.js';
import { fixes } from './fix-commands.js';
import { BUILT_CLI, EXTENSION_DIR, extensionBuilt, PACKAGE_ROOT } from '../../core/package-root.js';

export interface InstallContext {
  dataDir: string;
  platform: NodeJS.Platform;
  home: string;
  browserDataDir: string | undefined;
}

const manifestSchema = z.object({ path: z.string(), allowed_origins: z.array(z.string()) });

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The manifest at `path` for this data dir: what is wrong with it, or when right, the app's binary if the app wrote it. */
function checkManifest(path: string, context: InstallContext): { problem: string } | { app?: string } {
  const text = readText(path);
  if (text === undefined) return { problem: 'no native host manifest' };
  let manifest: z.infer<typeof manifestSchema>;
  try {
    manifest = manifestSchema.parse(JSON.parse(text));
  } catch {
    return { problem: `the native host manifest ${path} is not valid` };
  }
  const wrapper = hostWrapper({
    platform: context.platform,
    dataDir: context.dataDir,
    node: process.execPath,
    cli: BUILT_CLI,
  });
  if (manifest.path !== wrapper.path)
    return { problem: `the native host manifest points at ${manifest.path}, not this data dir's ${wrapper.path}` };
  if (JSON.stringify(manifest.allowed_origins) !== JSON.stringify(ALLOWED_ORIGINS))
    return { problem: 'the native host manifest allows other origins than our extension' };
  const script = readText(wrapper.path);
  if (script === undefined) return { problem: `the native host wrapper ${wrapper.path} is missing` };
  if (script === wrapper.text) return {};
  // The app writes its own wrapper at each start, running its binary in host mode: right as long as that binary is there.
  const command = wrapperCommand({ platform: context.platform, dataDir: context.dataDir, text: script });
  if (command?.at(-1) === NATIVE_HOST_FLAG) {
    return existsSync(command[0])
      ? { app: command[0] }
      : {
          problem: `the native host wrapper ${wrapper.path} runs the Chrome MCP app at ${command[0]}, which is not there any more`,
        };
  }
  // The wrapper names node and the CLI by absolute path: moving either (a node upgrade, a new checkout) breaks it.
  return { problem: `the native host wrapper ${wrapper.path} runs another node or chrome-mcp than this one` };
}

function hostFinding(label: string, target: string, path: string, context: InstallContext): Finding {
  const checked = checkManifest(path, context);
  if ('problem' in checked)
    return { ok: false, text: `${label}: ${checked.problem}`, fix: fixes.install(context.dataDir, target) };
  return {
    ok: true,
    text: `${label}: native host installed (${path})${checked.app ? `, run by the Chrome MCP app ${checked.app}` : ''}`,
  };
}

export function installFindings(context: InstallContext): Finding[] {
  const findings: Finding[] = [
    extensionBuilt()
      ? { ok: true, text: `extension built: ${EXTENSION_DIR}` }
      : {
          ok: false,
          text: `extension not built: ${EXTENSION_DIR} has no manifest.json`,
          fix: `cd ${JSON.stringify(PACKAGE_ROOT)} && npm run build`,
        },
  ];
  if (context.browserDataDir) {
    findings.push(
      hostFinding(
        `browser data dir ${context.browserDataDir}`,
        `--browser-data-dir ${JSON.stringify(context.browserDataDir)}`,
        manifestPathIn(context.browserDataDir, context.platform),
        context,
      ),
    );
    return findings;
  }
  if (context.platform === 'win32') {
    findings.push(
      hostFinding(
        'native host (registry keys not checked)',
        '--browser all',
        windowsManifestPath(context.dataDir),
        context,
      ),
    );
    return findings;
  }
  const present = BROWSERS.filter((browser) => existsSync(profileRoot(browser, context.platform, context.home)!));
  if (present.length === 0) {
    findings.push({
      ok: false,
      text: `no Chrome, Chromium, Edge or Brave profile under ${context.home}`,
      fix: `install one; for a browser started with --user-data-dir=DIR: ${fixes.install(context.dataDir, '--browser-data-dir DIR')}`,
    });
  }
  for (const browser of present) {
    findings.push(
      hostFinding(
        browser,
        `--browser ${browser}`,
        manifestPathIn(profileRoot(browser, context.platform, context.home)!, context.platform),
        context,
      ),
    );
  }
  return findings;
}

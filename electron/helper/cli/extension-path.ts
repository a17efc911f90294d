// `chrome-mcp extension-path`: the folder a person loads with "Load unpacked" in chrome://extensions.
import { parseFlags } from './args.js';
import { EXTENSION_DIR, extensionBuilt, PACKAGE_ROOT } from '../../core/package-root.js';

export const usage = `Usage: chrome-mcp extension-path

Prints the absolute path of the built extension folder: in Chrome open chrome://extensions, turn on
Developer mode, choose "Load unpacked" and pick that folder.
`;

export async function run(argv: string[]): Promise<number> {
  parseFlags(argv, {});
  if (!extensionBuilt()) {
    process.stderr.write(
      `chrome-mcp extension-path: the extension is not built (${EXTENSION_DIR} has no manifest.json).\nBuild it: cd ${PACKAGE_ROOT} && npm run build\n`,
    );
    return 1;
  }
  process.stdout.write(`${EXTENSION_DIR}\n`);
  return 0;
}

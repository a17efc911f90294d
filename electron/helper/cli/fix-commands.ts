// The exact commands `doctor` tells a person to run, spelled with the data dir they asked about.
import { EXTENSION_DIR } from '../../core/package-root.js';

const dataDirFlag = (dataDir: string) => ` --data-dir ${JSON.stringify(dataDir)}`;

export const fixes = {
  install: (dataDir: string, target: string) => `chrome-mcp install-native-host ${target}${dataDirFlag(dataDir)}`,
  startCore: (dataDir: string) =>
    `start your MCP client (it runs chrome-mcp), or by hand: chrome-mcp${dataDirFlag(dataDir)}`,
  loadExtension: (dataDir: string) =>
    `in Chrome open chrome://extensions, turn on Developer mode, Load unpacked: ${EXTENSION_DIR} — it pairs by itself through the native host; or pair by hand: chrome-mcp pair${dataDirFlag(dataDir)}`,
  pair: (dataDir: string) => `chrome-mcp pair${dataDirFlag(dataDir)} (then type the code into the extension's popup)`,
};
